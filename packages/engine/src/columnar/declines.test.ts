// The columnar core's range checks: a command that would take a quantity past what its numbers
// hold exactly is declined before it changes anything, and the bigint core carries on with the
// same result a bigint-only engine gives; later the engine goes back to the columnar core when
// the state fits it again.
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine.js';
import { State } from '../state.js';
import { ask, bid, funding, type Input, setUp, setupCommands } from './enginePairTestKit.js';

describe('columnar core: declines', () => {
  it('a bid that would take its side’s total of amounts past 2^53', () => {
    const pair = setUp();
    pair.apply(bid(1, 2n ** 52n, 1n));
    expect(pair.engine.coreName).toBe('columnar');
    pair.apply(bid(2, 2n ** 52n, 1n));
    expect(pair.engine.coreName).toBe('bigint');
    pair.apply({ type: 'order.cancelAll', userId: 1 });
  });

  it('not a book past 2^53 minor units where a lot is 10^8 of them: its totals count lots', () => {
    // A token of eight decimals, in whole units, at the lowest price: bids of 4 × 10^15 minor
    // units cost 4 × 10^7 minor units of money each.
    const LOT = 10n ** 8n;
    const setup = setupCommands().map((cmd) =>
      cmd.type === 'market.add' ? { ...cmd, lotSize: LOT, minAmount: LOT } : cmd,
    );
    const pair = setUp(undefined, setup);
    const big = 4n * 10n ** 15n;
    for (let i = 0; i < 3; i++) pair.apply(bid(1, big, 1n));
    pair.apply(bid(1, big, 2n));
    // The most lots one order holds (the amount below 2^53), beside 1.6 × 10^8 lots.
    pair.apply(bid(1, (2n ** 53n / LOT) * LOT, 1n));
    expect(pair.engine.coreName).toBe('columnar');
    const depth = (e: Engine) => JSON.stringify(e.depth('BTC_USDT', 10), (_k, v) => `${v}`);
    expect(depth(pair.engine)).toBe(depth(pair.bigint));
    expect(pair.engine.depth('BTC_USDT', 10).bids[1]).toEqual([
      1n,
      3n * big + (2n ** 53n / LOT) * LOT,
    ]);
    // A sell into both levels, past 2^53 in all, and a market sell for the rest.
    pair.apply(ask(2, 2n * big + LOT, 1n));
    pair.apply({ ...bid(2, 2n * big, 1n), type: 'order.market', side: 1, timeInForce: undefined });
    expect(depth(pair.engine)).toBe(depth(pair.bigint));
    pair.apply({ type: 'order.cancelAll', userId: 1 });
    expect(pair.engine.depth('BTC_USDT', 10).bids).toEqual([]);
    // Waiting stops count their amounts in lots as well.
    pair.apply(bid(1, LOT, 1n));
    pair.apply(ask(2, LOT, 1n));
    const stop = { ...bid(1, big, 2n), type: 'order.stopLimit', stopPrice: 2n };
    for (const amount of [big, big, (2n ** 53n / LOT) * LOT]) {
      expect(pair.apply({ ...stop, amount }).ok).toBe(true);
    }
    expect(pair.engine.coreName).toBe('columnar');
    pair.apply({ type: 'order.cancelAll', userId: 1 });
    expect(pair.engine.coreName).toBe('columnar');
  });

  it('not a trade in a market where a small bid far above it meets a large sell stop', () => {
    const pair = setUp();
    // A last price of 10^6 ticks; a sell stop of 10^15 below it, and bids for as much at 10^5.
    pair.apply(ask(1, 1000n, 10n ** 6n));
    pair.apply(bid(2, 1000n, 10n ** 6n));
    const stop = { ...bid(1, 10n ** 15n, 1n), side: 1, type: 'order.stopLimit' };
    expect(pair.apply({ ...stop, stopPrice: 5n * 10n ** 5n }).ok).toBe(true);
    pair.apply(bid(2, 10n ** 15n, 10n ** 5n));
    // One minor unit bid at 10^12 ticks costs 10^4 minor units of money; at that price the whole
    // stop would move 10^19, but it can take one minor unit there.
    pair.apply(bid(2, 1n, 10n ** 12n));
    const sell = pair.apply(ask(1, 1n, 10n ** 12n));
    expect(sell.ok && sell.events.some((e) => e.type === 'deal')).toBe(true);
    expect(pair.engine.coreName).toBe('columnar');
    // Bids the stop could take for more than 2^53 in all: a trade then hands over.
    for (let i = 0; i < 2; i++) pair.apply(bid(2, 5n * 10n ** 14n, 10n ** 9n));
    pair.apply(ask(1, 1n, 10n ** 9n));
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('an order whose fills could move more than 2^53 minor units', () => {
    const pair = setUp();
    pair.apply(bid(1, 10n ** 8n, 10n ** 6n));
    // 10^12 × 10^6 ticks: numerators past 2^53, a value of 10^10 minor units.
    pair.apply(bid(2, 10n ** 12n, 10n ** 6n));
    expect(pair.engine.coreName).toBe('columnar');
    // 10^15 × 10^10 ticks: 10^17 minor units.
    pair.apply(bid(2, 10n ** 15n, 10n ** 10n));
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('a market buy is bounded by what it can take from the asks, not by the far end of the book', () => {
    const pair = setUp();
    // The market's value is amount × ticks / 10^8: the bound is about 9 × 10^23 of products.
    pair.apply(ask(1, 10n ** 12n, 100n));
    // One minor unit offered at 10^15 ticks: its own fills fit.
    pair.apply(ask(1, 1n, 10n ** 15n));
    expect(pair.engine.coreName).toBe('columnar');
    const buy = { type: 'order.market', userId: 2, market: 'BTC_USDT', side: 2, source: 'api' };
    // 10^11 × 10^15 at the far end would be past the bound; the amount is covered at 100.
    pair.apply({ ...buy, amount: 10n ** 11n });
    expect(pair.engine.coreName).toBe('columnar');
    // One that takes the rest at 100 and the unit at 10^15: 9 × 10^13 + 10^15.
    pair.apply({ ...buy, amount: 900_000_000_001n });
    expect(pair.engine.coreName).toBe('columnar');
    // Two more asks of 6 × 10^8 at 10^15: each one's fills fit, a buy that takes both does not.
    pair.apply(ask(1, 6n * 10n ** 8n, 10n ** 15n));
    pair.apply(ask(1, 6n * 10n ** 8n, 10n ** 15n));
    expect(pair.engine.coreName).toBe('columnar');
    pair.apply({ ...buy, amount: 12n * 10n ** 8n });
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('a market buy that cancels its own asks is bounded by the others’ asks', () => {
    const pair = setUp();
    // User 2's own cheap ask, then two of user 1's whose fills fit each but not together.
    pair.apply(ask(2, 10n ** 12n, 100n));
    pair.apply(ask(1, 6n * 10n ** 8n, 10n ** 15n));
    pair.apply(ask(1, 6n * 10n ** 8n, 10n ** 15n));
    const buy = { type: 'order.market', userId: 2, market: 'BTC_USDT', side: 2, source: 'api' };
    // Stopped at its own ask, it takes nothing.
    pair.apply({ ...buy, amount: 12n * 10n ** 8n });
    expect(pair.engine.coreName).toBe('columnar');
    // Past it, it takes both far asks: counted with its own ask at 100, it would seem to fit.
    pair.apply({ ...buy, amount: 12n * 10n ** 8n, selfTradePrevention: 'cancelOldest' });
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('an order its user cannot pay for is refused on the columnar core, however large', () => {
    const pair = setUp();
    // User 3 holds little; users 1 and 2 trade once, for a last price of 10^6.
    for (const asset of ['BTC', 'USDT'])
      for (const cmd of funding(3, asset, 10n ** 6n)) pair.apply(cmd);
    pair.apply(ask(1, 10n ** 6n, 10n ** 6n));
    pair.apply(bid(2, 10n ** 6n, 10n ** 6n));
    pair.apply(ask(1, 10n ** 6n, 10n ** 7n));
    // Two asks whose fills fit each, and not together: a market buy of both would decline.
    pair.apply(ask(1, 6n * 10n ** 8n, 10n ** 15n));
    pair.apply(ask(1, 6n * 10n ** 8n, 10n ** 15n));
    pair.apply(bid(2, 10n ** 6n, 10n ** 5n));
    expect(pair.engine.coreName).toBe('columnar');
    const order = { userId: 3, market: 'BTC_USDT', source: 'api' };
    const huge = [
      // Its freeze passes 2^53; then its amount.
      bid(3, 10n ** 12n, 10n ** 12n),
      bid(3, 2n ** 60n, 1n),
      ask(3, 2n ** 60n, 1n),
      { ...order, type: 'order.market', side: 2, amount: 12n * 10n ** 8n + 10n ** 6n },
      { ...order, type: 'order.market', side: 2, amount: 2n ** 60n },
      { ...order, type: 'order.market', side: 1, amount: 2n ** 60n },
      { ...order, type: 'order.market', side: 2, total: 2n ** 60n },
      {
        ...order,
        type: 'order.stopLimit',
        side: 2,
        stopPrice: 2n * 10n ** 6n,
        price: 10n ** 12n,
        amount: 10n ** 12n,
      },
      {
        ...order,
        type: 'order.stopLimit',
        side: 1,
        stopPrice: 10n ** 5n,
        price: 10n ** 5n,
        amount: 2n ** 60n,
      },
      {
        ...order,
        type: 'order.oco',
        side: 2,
        price: 10n ** 5n,
        stopPrice: 2n * 10n ** 6n,
        limitPrice: 10n ** 12n,
        amount: 10n ** 12n,
      },
      {
        ...order,
        type: 'order.oco',
        side: 1,
        price: 2n * 10n ** 6n,
        stopPrice: 10n ** 5n,
        limitPrice: 10n ** 5n,
        amount: 2n ** 60n,
      },
    ];
    for (const cmd of huge) {
      const result = pair.apply(cmd);
      expect(
        result,
        JSON.stringify(cmd, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)),
      ).toMatchObject({
        ok: false,
        code: 'insufficient_balance',
      });
      expect(pair.engine.coreName).toBe('columnar');
    }
    // The first of them from a user who can pay for it still hands over.
    pair.apply(bid(2, 10n ** 12n, 10n ** 12n));
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('a sell is bounded by the bids it can reach, not by the best bid alone', () => {
    const pair = setUp();
    pair.apply(bid(1, 10n ** 12n, 100n));
    // One minor unit bid at 10^15 ticks: the best bid, and its own fills fit.
    pair.apply(bid(1, 1n, 10n ** 15n));
    expect(pair.engine.coreName).toBe('columnar');
    // 10^11 × 10^15 would be past the bound; what they can trade is 1 × 10^15 and the rest at 100.
    pair.apply(ask(2, 10n ** 11n, 100n));
    const sell = { type: 'order.market', userId: 2, market: 'BTC_USDT', side: 1, source: 'api' };
    pair.apply(bid(1, 1n, 10n ** 15n));
    pair.apply({ ...sell, amount: 10n ** 11n });
    expect(pair.engine.coreName).toBe('columnar');
    // Two bids of 6 × 10^8 at 10^15 ticks: each one's fills fit, a sell that takes both does not.
    pair.apply(bid(1, 6n * 10n ** 8n, 10n ** 15n));
    pair.apply(bid(1, 6n * 10n ** 8n, 10n ** 15n));
    expect(pair.engine.coreName).toBe('columnar');
    pair.apply({ ...sell, amount: 12n * 10n ** 8n });
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('a sell whose rest at its own price could fill past the bound declines', () => {
    const pair = setUp();
    pair.apply(bid(1, 1n, 10n ** 15n));
    // It takes the one unit at 10^15, and 10^15 − 1 rest at 10^10 ticks: 10^25 to come.
    pair.apply(ask(2, 10n ** 15n, 10n ** 10n));
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('an OCO sell is bounded by the bids its limit leg can reach', () => {
    const pair = setUp();
    pair.apply(bid(2, 1n, 10n));
    pair.apply(ask(1, 1n, 10n));
    pair.apply(bid(2, 1n, 10n ** 12n));
    const oco = { type: 'order.oco', userId: 1, market: 'BTC_USDT', side: 1, source: 'api' };
    // 10^5 at the best bid would pass 2^53; its limit leg takes 1 at 10^12 and rests at 20.
    pair.apply({ ...oco, amount: 10n ** 5n, price: 20n, stopPrice: 5n, limitPrice: 4n });
    expect(pair.engine.coreName).toBe('columnar');
  });

  it('a deposit past what two limbs hold', () => {
    const pair = setUp();
    const deposit = { type: 'balance.deposit', userId: 1, asset: 'BTC', businessId: 'big' };
    pair.apply({ ...deposit, amount: 2n ** 104n });
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('a rejected command is not a decline', () => {
    const pair = setUp();
    pair.apply(bid(1, 2n ** 60n, 0n));
    pair.apply({ type: 'order.cancel', userId: 1, orderId: 12345 });
    expect(pair.engine.coreName).toBe('columnar');
  });
});

describe('columnar core: declines for stops', () => {
  const sellStop = (amount: bigint): Input => ({
    type: 'order.stopLimit',
    userId: 1,
    market: 'BTC_USDT',
    side: 1,
    stopPrice: 5n,
    price: 1n,
    amount,
    source: 'web',
  });

  it('a trade that may fire a stop whose fills could pass the bound', () => {
    const pair = setUp();
    // A last price of 10.
    pair.apply(bid(2, 1n, 10n));
    pair.apply(ask(1, 1n, 10n));
    // A falling sell stop of 10^15 at a limit of 1 tick: what it freezes fits.
    pair.apply(sellStop(10n ** 15n));
    // Two bids of 5 × 10^13 at 10^10 ticks that do not trade: nothing can fire. Each fits.
    for (let i = 0; i < 2; i++) pair.apply(bid(2, 5n * 10n ** 13n, 10n ** 10n));
    expect(pair.engine.coreName).toBe('columnar');
    // A sell that trades may fire the stop into those bids: 10^14 × 10^10 is past the bound.
    pair.apply(ask(1, 1n, 10n ** 10n));
    expect(pair.engine.coreName).toBe('bigint');
    pair.apply({ type: 'order.cancelAll', userId: 1 });
  });

  it('a buy that trades, and rests where a sell stop it fires could sell, counts its rest', () => {
    const pair = setUp();
    pair.apply(bid(2, 1n, 10n));
    pair.apply(ask(1, 1n, 10n));
    pair.apply(sellStop(10n ** 15n));
    // A buy stop of 5 × 10^13 at a limit of 10^10 ticks, and an ask at the sell stop's price.
    const buyStop = { ...sellStop(5n * 10n ** 13n), userId: 2, side: 2, stopPrice: 20n };
    expect(pair.apply({ ...buyStop, price: 10n ** 10n }).ok).toBe(true);
    pair.apply(ask(1, 1n, 5n));
    expect(pair.engine.coreName).toBe('columnar');
    // The buy trades at 5, which fires the sell stop, and rests 5 × 10^13 at 10^10: with the buy
    // stop's, 10^24 of products the stop could sell into, past the bound.
    pair.apply(bid(2, 5n * 10n ** 13n + 1n, 10n ** 10n));
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('a small buy stop with a far limit does not decline every trade; their sum counts', () => {
    const pair = setUp();
    pair.apply(bid(2, 1n, 10n));
    pair.apply(ask(1, 1n, 10n));
    pair.apply(sellStop(10n ** 15n));
    const buyStop = (amount: bigint): Input => ({
      ...sellStop(amount),
      userId: 2,
      side: 2,
      stopPrice: 20n,
      price: 10n ** 12n,
    });
    // One unit at a limit of 10^12 ticks: the largest stop amount at the highest limit would be
    // 10^27, past the bound, but this stop can give a sell stop no more than 10^12.
    pair.apply(buyStop(1n));
    pair.apply(bid(2, 1n, 10n));
    pair.apply(ask(1, 1n, 10n));
    expect(pair.engine.coreName).toBe('columnar');
    // Two of 6 × 10^11 at that limit: 1.2 × 10^24 that a sell stop could take, past the bound.
    pair.apply(buyStop(6n * 10n ** 11n));
    pair.apply(buyStop(6n * 10n ** 11n));
    pair.apply(bid(2, 1n, 10n));
    expect(pair.engine.coreName).toBe('columnar');
    pair.apply(ask(1, 1n, 10n));
    expect(pair.engine.coreName).toBe('bigint');
    pair.apply({ type: 'order.cancelAll', userId: 2 });
  });

  it('forgets the largest sell stop once no stop waits', () => {
    const pair = setUp();
    pair.apply(bid(2, 1n, 10n));
    pair.apply(ask(1, 1n, 10n));
    pair.apply(sellStop(10n ** 15n));
    pair.apply({ type: 'order.cancelAll', userId: 1 });
    // A sell stop of one unit, and the bids of the first test: a trade fires nothing past the
    // bound now.
    pair.apply(sellStop(1n));
    for (let i = 0; i < 2; i++) pair.apply(bid(2, 5n * 10n ** 13n, 10n ** 10n));
    pair.apply(ask(1, 1n, 10n ** 10n));
    expect(pair.engine.coreName).toBe('columnar');
  });

  it('forgets the largest sell stop once it is gone, while a smaller one waits', () => {
    const pair = setUp();
    /** A sell stop of `amount` placed and cancelled again. */
    const placeAndCancel = (amount: bigint) => {
      const placed = pair.apply(sellStop(amount));
      if (!placed.ok || placed.result.kind !== 'order') throw new Error('not placed');
      pair.apply({ type: 'order.cancel', userId: 1, orderId: placed.result.order.id });
    };
    pair.apply(bid(2, 1n, 10n));
    pair.apply(ask(1, 1n, 10n));
    pair.apply(sellStop(1n));
    placeAndCancel(10n ** 15n);
    // The bids and the trade of the first test, with only the stop of one unit waiting.
    for (let i = 0; i < 2; i++) pair.apply(bid(2, 5n * 10n ** 13n, 10n ** 10n));
    pair.apply(ask(1, 1n, 10n ** 10n));
    expect(pair.engine.coreName).toBe('columnar');
    // A stop of 10^15 waiting, beside a larger one gone: the same trade is declined.
    pair.apply(sellStop(10n ** 15n));
    placeAndCancel(2n * 10n ** 15n);
    pair.apply(ask(1, 1n, 10n ** 10n));
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('a stop whose amount would take the waiting stops’ sum past 2^53', () => {
    const pair = setUp();
    pair.apply(bid(2, 1n, 10n));
    pair.apply(ask(1, 1n, 10n));
    pair.apply(sellStop(2n ** 52n));
    expect(pair.engine.coreName).toBe('columnar');
    pair.apply(sellStop(2n ** 52n));
    expect(pair.engine.coreName).toBe('bigint');
  });
});

describe('columnar core: going back after a hand-over', () => {
  /** A cancel of an order that does not exist: a command that changes nothing. */
  const idle: Input = { type: 'order.cancel', userId: 1, orderId: 999_999 };

  it('waits at most 2^20 commands, whatever wait it is given', () => {
    for (const [returnAfter, wait] of [
      [2 ** 30, 2 ** 20],
      [0, 1],
    ] as const) {
      const pair = setUp({ returnAfter });
      pair.apply(bid(2, 10n ** 15n, 10n ** 10n));
      expect(pair.engine.coreName).toBe('bigint');
      expect(pair.engine.commandsBeforeReturn).toBe(wait);
    }
  });

  it('goes back when a try finds the state fitting again', () => {
    const pair = setUp({ returnAfter: 3 });
    pair.apply(bid(1, 10n ** 8n, 10n ** 6n));
    // 10^15 × 10^10 ticks: the fills it could make are past the bound, so it is placed on the
    // bigint core.
    pair.apply(bid(2, 10n ** 15n, 10n ** 10n));
    expect(pair.engine.coreName).toBe('bigint');
    expect(pair.engine.commandsBeforeReturn).toBe(3);
    for (let i = 0; i < 3; i++) pair.apply(idle);
    // The fourth command after the hand-over comes after a try: the large bid still rests, as
    // no order on the columnar core may, so it stays; then the bid goes.
    pair.apply({ type: 'order.cancelAll', userId: 2 });
    expect(pair.engine.coreName).toBe('bigint');
    // The wait doubled to 6, that cancel the first of them: the seventh command from the try
    // runs on the columnar core.
    expect(pair.engine.commandsBeforeReturn).toBe(5);
    for (let i = 0; i < 5; i++) pair.apply(idle);
    expect(pair.engine.coreName).toBe('bigint');
    pair.apply(ask(2, 10n ** 8n, 10n ** 6n));
    expect(pair.engine.coreName).toBe('columnar');
    expect(pair.engine.commandsBeforeReturn).toBeNull();
    pair.apply(ask(1, 2n * 10n ** 8n, 10n ** 5n));
    pair.apply({ type: 'order.cancelAll', userId: 1 });
    expect(pair.engine.coreName).toBe('columnar');
  });

  it('waits twice as long after each try that does not fit, and after each hand-over', () => {
    const pair = setUp({ returnAfter: 2 });
    const deposit = { type: 'balance.deposit', userId: 1, asset: 'BTC', businessId: 'big' };
    // Deposits past what two limbs hold: the asset's deposits never fit again.
    pair.apply({ ...deposit, amount: 2n ** 104n });
    expect(pair.engine.coreName).toBe('bigint');
    expect(pair.engine.commandsBeforeReturn).toBe(2);
    // Each try fails, and the wait doubles: 2, 4, 8, 16.
    for (const wait of [4, 8, 16]) {
      for (let i = 0; i < 3; i++) pair.apply(idle);
      expect(pair.engine.coreName).toBe('bigint');
      expect(pair.engine.commandsBeforeReturn).toBe(wait - 1);
      for (let i = 3; i < wait; i++) pair.apply(idle);
    }
  });

  it('waits the first wait again after a hand-over once a return has held', () => {
    // Held once the columnar core has written 12 events since it took the state back.
    const pair = setUp({ returnAfter: 2, heldFor: 12 });
    const handOverAndBack = (wait: number) => {
      pair.apply(bid(2, 10n ** 15n, 10n ** 10n));
      expect(pair.engine.coreName).toBe('bigint');
      expect(pair.engine.commandsBeforeReturn).toBe(wait);
      pair.apply({ type: 'order.cancelAll', userId: 2 });
      for (let i = 0; i < wait; i++) pair.apply(idle);
      expect(pair.engine.coreName).toBe('columnar');
    };
    /** A bid and an ask that takes it: 6 events. */
    const trade = () => {
      pair.apply(bid(1, 1n, 100n));
      pair.apply(ask(2, 1n, 100n));
    };
    handOverAndBack(2);
    // Handed over again straight after the return: the wait doubles.
    handOverAndBack(4);
    trade();
    trade();
    // 12 events since the return: the wait is the first again.
    handOverAndBack(2);
    trade();
    // 6 events: it doubles.
    handOverAndBack(4);
  });

  it('a restore onto the bigint core tries the columnar core later; a bigint-only engine never', () => {
    const pair = setUp();
    pair.apply(bid(1, 10n ** 8n, 10n ** 6n));
    pair.apply(bid(2, 10n ** 15n, 10n ** 10n));
    const restored = Engine.restore(pair.engine.snapshot());
    expect(restored.coreName).toBe('bigint');
    expect(restored.commandsBeforeReturn).toBe(1024);
    expect(pair.bigint.commandsBeforeReturn).toBeNull();
    expect(new Engine(new State()).commandsBeforeReturn).toBeNull();
  });
});
