import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { testConfig } from '../../testing/testConfig.js';
import { useTestDb } from '../../testing/testDb.js';
import { createSignedInUser, signedInClient, type TestUser } from '../auth/testClient.js';
import { buildTradingApp, fundTrade, placeLimit } from '../orders/tradingTestKit.js';

const testDb = useTestDb();
let app: FastifyInstance;
let user: TestUser;

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
  user = await createSignedInUser(app);
});

afterAll(async () => {
  await app.close();
});

async function balance(ticker: string) {
  const rows = (await user.client.get('/api/v3/profile/balance')).json() as {
    ticker: string;
    mainBalance: string;
    tradeAvailable: string;
  }[];
  return rows.find((row) => row.ticker === ticker);
}

async function mine(blocks: number, network?: string) {
  const response = await user.client.post('/api/dev/chain/mine', { blocks, network });
  expect(response.statusCode).toBe(200);
  return response.json().heights as Record<string, number>;
}

describe('a fresh user deposits, transfers to trade and trades', () => {
  it('gets the same Bitcoin address every time', async () => {
    const first = await user.client.get('/api/v2/profile/address/BTC');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ network: 'bitcoin', memo: null });
    expect(first.json().address).toMatch(/^bc1q[a-z0-9]{38}$/);
    expect((await user.client.get('/api/v2/profile/address/BTC')).json()).toEqual(first.json());
    const bsc = (await user.client.get('/api/v2/profile/address/BTC?network=bsc')).json();
    expect(bsc.address).toMatch(/^0x[0-9a-f]{40}$/);
  });

  it('credits a deposit to main once, at the network confirmations', async () => {
    const { address } = (await user.client.get('/api/v2/profile/address/BTC')).json();
    const sent = await user.client.post('/api/dev/chain/deposit', {
      ticker: 'BTC',
      address,
      amount: '0.5',
    });
    expect(sent.statusCode).toBe(200);
    const { txHash } = sent.json();
    await mine(1, 'bitcoin');
    const pending = (await user.client.get('/api/v2/deposit_history')).json();
    expect(pending.records[0]).toMatchObject({
      ticker: 'BTC',
      txHash,
      amount: '0.5',
      status: 2,
      confirmations: 1,
      confirmationsRequired: 2,
    });
    expect((await balance('BTC'))?.mainBalance).toBe('0');
    await mine(1, 'bitcoin');
    expect((await balance('BTC'))?.mainBalance).toBe('0.5');
    await mine(5);
    // A restart scans the chain again: still credited once.
    await app.close();
    const { db, dialect } = testDb.current;
    app = await buildApp(testConfig(), { db, dialect });
    user = { ...user, client: await signedInClient(app, user.user.id) };
    await mine(1);
    expect((await balance('BTC'))?.mainBalance).toBe('0.5');
    const done = (await user.client.get('/api/v2/deposit_history?ticker=BTC')).json();
    expect(done).toMatchObject({ total: 1 });
    expect(done.records[0]).toMatchObject({ status: 3, confirmations: 2 });
    const explorer = await app.inject({ url: new URL(done.records[0].explorerLink).pathname });
    expect(explorer.json()).toMatchObject({ txHash, outputs: [{ asset: 'BTC', amount: '0.5' }] });
  });

  it('moves the deposit to trade and trades with it', async () => {
    const moved = await user.client.post('/api/v2/profile/transfer', {
      ticker: 'BTC',
      amount: '0.5',
      from: 'main',
      to: 'trade',
    });
    expect(moved.json()).toEqual({ mainBalance: '0', tradeAvailable: '0.5' });
    const buyer = await createSignedInUser(app);
    await fundTrade(app, buyer.user.id, 'USDT', '100000');
    await placeLimit(buyer.client, 'BTC_USDT', 'buy', '30000', '0.2');
    const sold = await user.client.post('/api/v2/order/put_market', {
      pair: 'BTC_USDT',
      direction: 'sell',
      amount: '0.2',
    });
    expect(sold.statusCode).toBe(201);
    expect(sold.json().order).toMatchObject({ deal_stock: '0.2', deal_money: '6000' });
    expect(await balance('BTC')).toMatchObject({ tradeAvailable: '0.3' });
    // 6000 less the taker fee of 0.2%.
    expect(await balance('USDT')).toMatchObject({ tradeAvailable: '5988' });
  });
});

describe('memo networks and new addresses', () => {
  it('shares the address, tells users apart by memo, and ignores a deposit without it', async () => {
    const mineAddress = (
      await user.client.get('/api/v2/profile/address/BNB?network=bnb_beacon')
    ).json();
    const other = await createSignedInUser(app);
    const theirs = (
      await other.client.get('/api/v2/profile/address/BNB?network=bnb_beacon')
    ).json();
    expect(mineAddress.address).toBe(theirs.address);
    expect(mineAddress.memo).not.toBe(theirs.memo);
    expect(mineAddress.memo).toMatch(/^\d+$/);
    for (const memo of [mineAddress.memo, undefined]) {
      await user.client.post('/api/dev/chain/deposit', {
        ticker: 'BNB',
        network: 'bnb_beacon',
        address: mineAddress.address,
        amount: '2',
        memo,
      });
    }
    await mine(1, 'bnb_beacon');
    expect((await balance('BNB'))?.mainBalance).toBe('2');
  });

  it('gives a new address only once the current one was used', async () => {
    const first = await user.client.post('/api/v2/profile/address', { ticker: 'ETH' });
    expect(first.statusCode).toBe(200);
    const again = await user.client.post('/api/v2/profile/address', { ticker: 'ETH' });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(
      'You cant create new address while your current is not used.',
    );
    const used = await user.client.post('/api/v2/profile/address', { ticker: 'BTC' });
    expect(used.statusCode).toBe(200);
    expect(used.json().address).not.toBe(
      (await user.client.get('/api/v2/profile/address/BTC?network=bsc')).json().address,
    );
  });

  it('refuses unknown currencies, networks and amounts', async () => {
    expect((await user.client.get('/api/v2/profile/address/NOPE')).statusCode).toBe(404);
    expect((await user.client.get('/api/v2/profile/address/BTC?network=tron')).statusCode).toBe(
      422,
    );
    const bad = await user.client.post('/api/dev/chain/deposit', {
      ticker: 'BTC',
      address: 'x',
      amount: '0.000000001',
    });
    expect(bad.json().errors).toEqual({ amount: ['At most 8 decimal places'] });
    const height = (await app.inject({ url: '/api/v2/blockHeight/BTC' })).json();
    expect(height.network).toBe('bitcoin');
    expect(height.height).toBeGreaterThanOrEqual(8);
  });
});

describe('the scan cursor', () => {
  async function storedCursor(network: string): Promise<number> {
    const row = await testDb.current.db
      .selectFrom('chain_scan_cursors')
      .select('height')
      .where('network', '=', network)
      .executeTakeFirst();
    return row ? Number(row.height) : 0;
  }

  it('is written with a transfer seen, not for empty blocks, and at close', async () => {
    const { address } = (await user.client.get('/api/v2/profile/address/BTC')).json();
    await user.client.post('/api/dev/chain/deposit', { ticker: 'BTC', address, amount: '0.1' });
    const withTransfer = (await mine(1, 'bitcoin')).bitcoin!;
    expect(await storedCursor('bitcoin')).toBe(withTransfer);
    const later = (await mine(3, 'bitcoin')).bitcoin!;
    expect(await storedCursor('bitcoin')).toBe(withTransfer);
    await app.close();
    expect(await storedCursor('bitcoin')).toBe(later);
    app = await buildTradingApp(testDb.current);
    user = { ...user, client: await signedInClient(app, user.user.id) };
    // After the restart the deposit is still credited once.
    await mine(1, 'bitcoin');
    const history = (await user.client.get('/api/v2/deposit_history?ticker=BTC')).json();
    expect(history.records.filter((r: { amount: string }) => r.amount === '0.1')).toHaveLength(1);
  });
});
