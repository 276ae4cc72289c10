import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, type Session, screenshot } from './support/browser.js';
import { signIn } from './support/flows.js';

// Alice trades BTC_USDT against the demo liquidity the server keeps on every market.
const alice = { email: 'alice@example.com', password: 'Alice-demo-1' };
const pair = 'BTC_USDT';
let session: Session;
/** The market's minimum amount, read by the first test. */
let minAmount = '0.001';

/** A buy price far under the market, a whole number so it sits on any tick. */
async function restingBuyPrice(): Promise<{ price: string; amount: string }> {
  const { page } = session;
  return page.evaluate(async (name) => {
    const depth = (await (await fetch(`/api/v2/depth/${name}?limit=1`)).json()) as {
      bids: [string, string][];
    };
    const list = (await (await fetch('/api/v2/market-list')).json()) as {
      items: { name: string; min_amount: string }[];
    };
    const best = depth.bids[0]?.[0] ?? '2';
    const whole = BigInt(best.split('.')[0] ?? '2');
    const market = list.items.find((item) => item.name === name);
    return { price: (whole / 2n).toString(), amount: market?.min_amount ?? '0.001' };
  }, pair);
}

beforeAll(async () => {
  session = await openSession();
  await signIn(session.page, alice);
  await session.page.evaluate(() => localStorage.setItem('lattice.cookiesAccepted', '1'));
});

afterAll(async () => {
  await session.close();
});

describe('trading on the pro screen', () => {
  it('places a limit order from the form, sees it in open orders and the book, cancels it', async () => {
    const { page } = session;
    await page.goto(`/trade/${pair}`);
    await page.getByTestId('book-buy').first().waitFor();
    const { price, amount } = await restingBuyPrice();
    minAmount = amount;
    const buy = page.getByTestId('order-form-buy');
    await buy.getByLabel(/^Price/).fill(price);
    await buy.getByLabel(/^Amount/).fill(amount);
    await buy.getByRole('button', { name: 'Buy BTC' }).click();
    await page.getByText('Order successfully created').first().waitFor();

    const mine = page.getByTestId('open-order').filter({ hasText: price });
    await mine.first().waitFor();
    await page.getByTestId('book-buy').filter({ hasText: price }).first().waitFor();

    await mine.first().getByRole('button', { name: 'Cancel' }).click();
    await page.getByText(`${pair} order was successfully deleted`).first().waitFor();
    await mine.first().waitFor({ state: 'detached' });
    await page
      .getByTestId('book-buy')
      .filter({ hasText: price })
      .first()
      .waitFor({ state: 'detached' });
    expect(session.errors).toEqual([]);
  });

  it('fills a market order against the demo liquidity and announces it finished', async () => {
    const { page } = session;
    // Straight after the cancel above, so its finished-order notice and this one often come
    // within the 200 ms the notices wait for: each must still read as its own order.
    await page.getByRole('tab', { name: 'Market' }).click();
    const sell = page.getByTestId('order-form-sell');
    await sell.getByLabel(/^Amount/).fill(minAmount);
    await sell.getByRole('button', { name: 'Sell BTC' }).click();
    await page.getByText('Order successfully created').first().waitFor();
    // The toast, not the same line in the closed notifications menu; a market order's price is
    // the average of its trades, never its own price 0.
    await page
      .locator('text=/^Sell order BTC\\/USDT finished: [0-9.]+ at [1-9][0-9.]*$/ >> visible=true')
      .first()
      .waitFor();
    await page.getByRole('tab', { name: 'Order history' }).click();
    await page.getByTestId('finished-order').filter({ hasText: 'Market' }).first().waitFor();
    expect(session.errors).toEqual([]);
  });

  it('buys at market by total, and checks a stop price against the last price', async () => {
    const { page } = session;
    // Twice what the minimum amount costs at the best ask: enough for a lot, whatever the price.
    const total = await page.evaluate(
      async ({ name, amount }) => {
        const depth = (await (await fetch(`/api/v2/depth/${name}?limit=1`)).json()) as {
          asks: [string, string][];
        };
        const ask = BigInt((depth.asks[0]?.[0] ?? '100000').split('.')[0] ?? '100000') + 1n;
        const [whole = '0', fraction = ''] = amount.split('.');
        const amountUnits = BigInt(whole + fraction.padEnd(8, '0').slice(0, 8));
        return ((ask * amountUnits * 2n) / 10n ** 8n + 1n).toString();
      },
      { name: pair, amount: minAmount },
    );
    await page.getByRole('tab', { name: 'Market' }).click();
    const buy = page.getByTestId('order-form-buy');
    await buy.getByRole('button', { name: 'By total' }).click();
    await buy.getByLabel(/^Total/).fill(total);
    await buy.getByRole('button', { name: 'Buy BTC' }).click();
    await page
      .locator('text=/^Buy order BTC\\/USDT finished: [0-9.]+ at [1-9][0-9.]*$/ >> visible=true')
      .first()
      .waitFor();

    await page.getByRole('tab', { name: 'Stop-limit' }).click();
    await buy.getByLabel(/^Stop/).fill('1');
    await buy.getByLabel(/^Price/).fill('1');
    await buy.getByLabel(/^Amount/).fill(minAmount);
    await buy.getByRole('button', { name: 'Buy BTC' }).click();
    await buy.getByText('Must be greater than last market price').waitFor();
    expect(session.errors).toEqual([]);
  });

  it('keeps orders, balances, book and candles live from the socket, without polling', async () => {
    const { page } = session;
    // What a request-response cycle of this screen may still ask for by itself is pushed
    // instead; idle for a few seconds, none of these is read again.
    const pushed = ['/api/v2/order', '/api/v3/profile/balance', `/api/v2/depth/${pair}`];
    const asked: string[] = [];
    const watch = (request: { url(): string }) => {
      const path = new URL(request.url()).pathname;
      if (pushed.includes(path) || path.startsWith('/api/v2/kline/')) asked.push(path);
    };
    await page.waitForTimeout(1000);
    page.on('request', watch);
    await page.waitForTimeout(5000);
    page.off('request', watch);
    expect(asked).toEqual([]);
    // Yet the book still moves with the demo liquidity: it is fed by the socket.
    await page.getByTestId('book-buy').first().waitFor();
  });

  it('shoots the trading screens in both themes, on a desktop and at 375 px', async () => {
    const { page } = session;
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((dark) => {
        if (dark) localStorage.setItem('lattice.theme', 'dark');
        else localStorage.removeItem('lattice.theme');
      }, theme === 'dark');
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        for (const path of [`/trade/${pair}`, `/trade_classic/${pair}`]) {
          await page.goto(path);
          await page.getByTestId('book-buy').first().waitFor();
          if (!path.includes('classic'))
            await page.locator('[aria-label="chart"] canvas').first().waitFor();
          const layout = width === 375 ? 'mobile' : 'desktop';
          await screenshot(page, `${path.slice(1).replace('/', '-')}-signed-in-${theme}-${layout}`);
        }
      }
    }
  });
});
