import { describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import type { CommandInput } from './fixtures.js';
import { BUY, btc, CORES, MARKET, SELL, TestExchange, usdt } from './fixtures.js';
import type { Command, RejectCode } from './types.js';

function exchange(engine?: Engine): TestExchange {
  const x = TestExchange.standard(engine);
  for (const user of [1, 2]) {
    x.fund(user, 'BTC', btc('1'));
    x.fund(user, 'USDT', usdt('10000'));
  }
  x.limit(1, SELL, '3000', '0.01');
  x.limit(2, BUY, '3000', '0.01');
  return x;
}

const limit = {
  type: 'order.limit',
  userId: 1,
  market: MARKET,
  side: SELL,
  price: usdt('3100'),
  amount: btc('0.01'),
  timeInForce: 'GTC',
  source: 'web',
} as const;

/** A command with some fields replaced by anything, typed or not. */
function bad(base: CommandInput, changes: Record<string, unknown>): CommandInput {
  return { ...base, ...changes } as unknown as CommandInput;
}

/** A deposit's fields (a freeze's too): one minor unit of BTC for user 1, business id x. */
const deposit1 = { userId: 1, asset: 'BTC', amount: 1n, businessId: 'x' } as const;

const cases: [string, CommandInput, RejectCode][] = [
  ['unknown market', bad(limit, { market: 'DOGE_USDT' }), 'market_not_found'],
  ['unknown user', bad(limit, { userId: 99 }), 'user_not_found'],
  ['user id not a number', bad(limit, { userId: '1' }), 'invalid_user'],
  ['user id zero', bad(limit, { userId: 0 }), 'invalid_user'],
  ['deposit to user id zero', { type: 'balance.deposit', ...deposit1, userId: 0 }, 'invalid_user'],
  ['zero amount', bad(limit, { amount: 0n }), 'invalid_amount'],
  ['negative amount', bad(limit, { amount: -btc('0.01') }), 'invalid_amount'],
  ['amount as a number', bad(limit, { amount: 1_000_000 }), 'invalid_amount'],
  ['amount over precision', bad(limit, { amount: btc('0.01') + 1n }), 'amount_precision'],
  ['amount under minimum', bad(limit, { amount: btc('0.0009') }), 'amount_too_small'],
  ['price off tick', bad(limit, { price: usdt('3100') + 1n }), 'price_precision'],
  ['zero price', bad(limit, { price: 0n }), 'invalid_price'],
  ['bad side', bad(limit, { side: 3 }), 'invalid_command'],
  ['bad time in force', bad(limit, { timeInForce: 'GTD' }), 'invalid_command'],
  ['bad source', bad(limit, { source: 'fax' }), 'invalid_command'],
  ['insufficient balance', bad(limit, { amount: btc('2') }), 'insufficient_balance'],
  // Past 10^36 minor units, whatever the balance: no exact sum of such amounts is promised.
  ['amount beyond 10^36', bad(limit, { amount: 10n ** 37n }), 'amount_too_large'],
  ['amount one past 10^36', bad(limit, { amount: 10n ** 36n + 1n }), 'amount_too_large'],
  // Past 2^53 − 1 ticks: a price whose tick count no number holds exactly.
  ['price beyond 2^53 ticks', bad(limit, { price: usdt('0.01') * 2n ** 53n }), 'price_too_large'],
  [
    'deposit beyond 10^36',
    { type: 'balance.deposit', userId: 1, asset: 'BTC', amount: 10n ** 37n, businessId: 'x' },
    'amount_too_large',
  ],
  [
    'deposit one past 10^36',
    { type: 'balance.deposit', ...deposit1, amount: 10n ** 36n + 1n },
    'amount_too_large',
  ],
  [
    'stop price equal to last',
    {
      type: 'order.stopLimit',
      userId: 1,
      market: MARKET,
      side: SELL,
      stopPrice: usdt('3000'),
      price: usdt('2990'),
      amount: btc('0.01'),
      source: 'web',
    },
    'invalid_stop_price',
  ],
  [
    'stop-limit sell without the stock',
    {
      type: 'order.stopLimit',
      userId: 1,
      market: MARKET,
      side: SELL,
      stopPrice: usdt('2900'),
      price: usdt('2890'),
      amount: btc('2'),
      source: 'web',
    },
    'insufficient_balance',
  ],
  [
    'stop-limit buy without the money',
    {
      type: 'order.stopLimit',
      userId: 1,
      market: MARKET,
      side: BUY,
      stopPrice: usdt('3100'),
      price: usdt('3110'),
      amount: btc('4'),
      source: 'web',
    },
    'insufficient_balance',
  ],
  [
    'OCO buy without the money for its dearer leg',
    {
      type: 'order.oco',
      userId: 1,
      market: MARKET,
      side: BUY,
      price: usdt('2000'),
      stopPrice: usdt('3100'),
      limitPrice: usdt('3110'),
      amount: btc('4'),
      source: 'web',
    },
    'insufficient_balance',
  ],
  [
    'OCO sell without the stock',
    {
      type: 'order.oco',
      userId: 1,
      market: MARKET,
      side: SELL,
      price: usdt('3100'),
      stopPrice: usdt('2900'),
      limitPrice: usdt('2890'),
      amount: btc('2'),
      source: 'web',
    },
    'insufficient_balance',
  ],
  [
    'OCO stop on the wrong side',
    {
      type: 'order.oco',
      userId: 1,
      market: MARKET,
      side: SELL,
      price: usdt('3100'),
      stopPrice: usdt('3050'),
      limitPrice: usdt('3040'),
      amount: btc('0.01'),
      source: 'web',
    },
    'invalid_oco_prices',
  ],
  // Each OCO price must be strictly on its side of the last price (3000).
  ...(
    [
      ['sell, stop at the last price', 1, '3100', '3000'],
      ['sell, price at the last price', 1, '3000', '2900'],
      ['buy, stop at the last price', 2, '2900', '3000'],
      ['buy, price at the last price', 2, '3000', '3100'],
    ] as const
  ).map(([name, side, price, stop]): [string, CommandInput, RejectCode] => [
    `OCO ${name}`,
    {
      type: 'order.oco',
      userId: 1,
      market: MARKET,
      side,
      price: usdt(price),
      stopPrice: usdt(stop),
      limitPrice: usdt(stop),
      amount: btc('0.01'),
      source: 'web',
    },
    'invalid_oco_prices',
  ]),
  ['unknown order', { type: 'order.cancel', userId: 1, orderId: 12345 }, 'order_not_found'],
  ['cancel by an unknown user', { type: 'order.cancel', userId: 99, orderId: 1 }, 'user_not_found'],
  ['cancel all by an unknown user', { type: 'order.cancelAll', userId: 99 }, 'user_not_found'],
  [
    'cancel all in an unknown market',
    { type: 'order.cancelAll', userId: 1, market: 'DOGE_USDT' },
    'market_not_found',
  ],
  [
    'cancel all by coin by an unknown user',
    { type: 'order.cancelAllByCoin', userId: 99, asset: 'BTC' },
    'user_not_found',
  ],
  [
    'cancel all by an unknown coin',
    { type: 'order.cancelAllByCoin', userId: 1, asset: 'DOGE' },
    'asset_not_found',
  ],
  ['unknown command', bad(limit, { type: 'order.teleport' }), 'invalid_command'],
  [
    'deposit of an unknown asset',
    { type: 'balance.deposit', userId: 1, asset: 'XRP', amount: 1n, businessId: 'x' },
    'asset_not_found',
  ],
  [
    'deposit without a business id',
    { type: 'balance.deposit', userId: 1, asset: 'BTC', amount: 1n, businessId: '' },
    'invalid_business_id',
  ],
  [
    'business id of 129 characters',
    { type: 'balance.deposit', ...deposit1, businessId: 'b'.repeat(129) },
    'invalid_business_id',
  ],
  [
    'business name of 32 characters',
    { type: 'balance.deposit', ...deposit1, business: 'n'.repeat(32) },
    'invalid_command',
  ],
  [
    'freeze purpose of 32 characters',
    { type: 'balance.freeze', ...deposit1, account: 'main', purpose: 'p'.repeat(32) },
    'invalid_command',
  ],
  [
    'market with a fee of 100%',
    {
      type: 'market.add',
      name: 'LTT_BTC',
      stock: 'LTT',
      money: 'BTC',
      tickSize: 1n,
      lotSize: 1n,
      minAmount: 1n,
      pricePrecision: 8,
      amountPrecision: 8,
      makerFeePpm: 1_000_000,
      takerFeePpm: 0,
    },
    'invalid_market',
  ],
  [
    'asset with a lower-case name',
    { type: 'asset.add', asset: 'eth', decimals: 18 },
    'invalid_command',
  ],
];

/**
 * An exchange with XYZ_USDT (XYZ in 8 decimals, no fees, a minimum of 500 minor units) of this
 * tick and lot, user 1 holding 10,000 minor units of XYZ, and a sell of it at 1 USDT.
 */
function xyzExchange(tickSize: bigint, lotSize: bigint) {
  const x = TestExchange.standard();
  x.addXyzMarket({ tickSize, lotSize });
  x.fund(1, 'XYZ', 10_000n);
  return { x, order: { ...limit, market: 'XYZ_USDT', price: usdt('1') } };
}

describe.each(CORES)('rejections on the %s core', (_core, makeEngine) => {
  it.each(cases)('%s: rejected with a stable code, state unchanged', (_name, cmd, code) => {
    const x = exchange(makeEngine());
    const before = x.engine.stateHash();
    const seq = x.engine.lastEventSeq;
    expect(x.rejected(cmd).code).toBe(code);
    expect(x.engine.stateHash()).toBe(before);
    expect(x.engine.lastEventSeq).toBe(seq);
  });

  it('the largest amount, 10^36, and the largest price, 2^53 − 1 ticks, are accepted', () => {
    const x = exchange(makeEngine());
    x.ok({ type: 'balance.deposit', ...deposit1, amount: 10n ** 36n });
    x.ok(bad(limit, { price: usdt('0.01') * (2n ** 53n - 1n) }));
  });

  it('the longest business id (128), business name and purpose (31) are accepted', () => {
    const x = exchange(makeEngine());
    const deposit = { ...deposit1, businessId: 'b'.repeat(128), business: 'n'.repeat(31) };
    x.ok({ type: 'balance.deposit', ...deposit });
    x.ok({ type: 'balance.freeze', ...deposit1, account: 'main', purpose: 'p'.repeat(31) });
  });
});

describe.each(CORES)('before a market has traded, on the %s core', (_core, makeEngine) => {
  it('a stop-limit or an OCO has no last price to trigger on, and is refused', () => {
    const x = TestExchange.standard(makeEngine());
    x.fund(1, 'BTC', btc('1'));
    const before = x.engine.stateHash();
    const stop = { type: 'order.stopLimit', userId: 1, market: MARKET, side: SELL } as const;
    const prices = { stopPrice: usdt('2900'), price: usdt('2890'), amount: btc('0.01') };
    expect(x.rejected({ ...stop, ...prices, source: 'web' })).toMatchObject({
      code: 'invalid_stop_price',
      message: 'No last price yet',
    });
    const oco = {
      type: 'order.oco',
      userId: 1,
      market: MARKET,
      side: SELL,
      price: usdt('3100'),
      stopPrice: usdt('2900'),
      limitPrice: usdt('2890'),
      amount: btc('0.01'),
      source: 'web',
    } as const;
    expect(x.rejected(oco)).toMatchObject({
      code: 'invalid_oco_prices',
      message: 'No last price yet',
    });
    expect(x.engine.stateHash()).toBe(before);
  });
});

describe('rejections', () => {
  it('rejects a time that is not a whole, non-negative number of milliseconds', () => {
    const x = exchange();
    for (const time of [1.5, -1, 2 ** 53, '1700000000000']) {
      const result = x.engine.apply({ ...limit, time } as unknown as Command);
      expect(result).toMatchObject({ ok: false, code: 'invalid_time' });
    }
    expect(x.engine.apply({ ...limit, time: 0 } as Command).ok).toBe(true);
  });

  it('rejects bad field types in idempotent commands instead of throwing', () => {
    const x = exchange();
    const settle = { type: 'balance.settleFreeze', businessId: 'f', toUserId: 2n };
    expect(x.rejected(settle as unknown as CommandInput).code).toBe('invalid_user');
    const stray = { type: 'balance.withdrawRelease', businessId: 'w', extra: 5n };
    expect(x.rejected(stray as unknown as CommandInput).code).toBe('withdraw_not_found');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const complete = { type: 'balance.withdrawComplete', businessId: 'c', fee: cyclic };
    expect(x.rejected(complete as unknown as CommandInput).code).toBe('invalid_command');
  });

  it('rejects a command that is not an object', () => {
    const x = exchange();
    expect(x.engine.apply(null as unknown as Command)).toMatchObject({ code: 'invalid_command' });
  });

  it('a lot-size mismatch is its own code', () => {
    const { x, order } = xyzExchange(usdt('0.05'), 500n);
    expect(x.rejected(bad(order, { amount: 700n })).code).toBe('amount_off_lot');
    expect(x.rejected(bad(order, { price: usdt('1.01') })).code).toBe('price_off_tick');
  });

  it('the minimum amount is the smallest accepted, to the minor unit', () => {
    const { x, order } = xyzExchange(usdt('0.01'), 1n);
    expect(x.rejected(bad(order, { amount: 499n })).code).toBe('amount_too_small');
    x.ok(bad(order, { amount: 500n }));
  });
});
