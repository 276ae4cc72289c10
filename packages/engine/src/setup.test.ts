// The rules of the configuration commands: an asset or market that breaks one is refused with a
// stable code and the field at fault, on either core, and nothing is added.
import { describe, expect, it } from 'vitest';
import { btc, CORES, type CommandInput, TestExchange } from './fixtures.js';
import type { RejectCode } from './types.js';

/** A market of BTC against LTT that every rule accepts: 8 decimals each. */
const market = {
  type: 'market.add',
  name: 'BTC_LTT',
  stock: 'BTC',
  money: 'LTT',
  tickSize: 100n,
  lotSize: btc('0.0001'),
  minAmount: btc('0.001'),
  pricePrecision: 6,
  amountPrecision: 4,
  makerFeePpm: 1000,
  takerFeePpm: 2000,
} as const;

const asset = { type: 'asset.add', asset: 'ETH', decimals: 18 } as const;

/** The command with some fields replaced by anything, typed or not. */
function changed(base: CommandInput, changes: Record<string, unknown>): CommandInput {
  return { ...base, ...changes } as unknown as CommandInput;
}

const cases: [string, CommandInput, RejectCode, string][] = [
  ['unknown stock', changed(market, { stock: 'XRP', name: 'XRP_LTT' }), 'asset_not_found', 'stock'],
  ['unknown money', changed(market, { money: 'XRP', name: 'BTC_XRP' }), 'asset_not_found', 'money'],
  [
    'stock and money alike',
    changed(market, { money: 'BTC', name: 'BTC_BTC' }),
    'invalid_market',
    'money',
  ],
  ['a name not STOCK_MONEY', changed(market, { name: 'BTCLTT' }), 'invalid_market', 'name'],
  [
    'a market that exists',
    changed(market, { name: 'BTC_USDT', money: 'USDT' }),
    'market_exists',
    'name',
  ],
  [
    'price precision past the money’s decimals',
    changed(market, { pricePrecision: 9 }),
    'invalid_market',
    'pricePrecision',
  ],
  [
    'price precision not a whole number',
    changed(market, { pricePrecision: 2.5 }),
    'invalid_market',
    'pricePrecision',
  ],
  [
    'amount precision past the stock’s decimals',
    changed(market, { amountPrecision: 9 }),
    'invalid_market',
    'amountPrecision',
  ],
  [
    'negative amount precision',
    changed(market, { amountPrecision: -1 }),
    'invalid_market',
    'amountPrecision',
  ],
  ['a tick off the price step', changed(market, { tickSize: 150n }), 'invalid_market', 'tickSize'],
  ['a zero tick', changed(market, { tickSize: 0n }), 'invalid_market', 'tickSize'],
  [
    'a tick past 10^36',
    changed(market, { tickSize: 10n ** 36n + 100n }),
    'invalid_market',
    'tickSize',
  ],
  [
    'a lot past 10^36',
    changed(market, { lotSize: 10n ** 36n + btc('0.0001') }),
    'invalid_market',
    'lotSize',
  ],
  [
    'a minimum past 10^36',
    changed(market, { minAmount: 10n ** 36n + 1n }),
    'invalid_market',
    'minAmount',
  ],
  ['a tick as a number', changed(market, { tickSize: 100 }), 'invalid_market', 'tickSize'],
  [
    'a lot off the amount step',
    changed(market, { lotSize: btc('0.0001') + 1n }),
    'invalid_market',
    'lotSize',
  ],
  ['a negative lot', changed(market, { lotSize: -btc('0.0001') }), 'invalid_market', 'lotSize'],
  ['a negative minimum', changed(market, { minAmount: -1n }), 'invalid_market', 'minAmount'],
  ['a minimum as text', changed(market, { minAmount: '100000' }), 'invalid_market', 'minAmount'],
  [
    'a maker fee of 100%',
    changed(market, { makerFeePpm: 1_000_000 }),
    'invalid_market',
    'makerFeePpm',
  ],
  [
    'a taker fee of 100%',
    changed(market, { takerFeePpm: 1_000_000 }),
    'invalid_market',
    'takerFeePpm',
  ],
  ['a negative taker fee', changed(market, { takerFeePpm: -1 }), 'invalid_market', 'takerFeePpm'],
  ['an asset name in lower case', changed(asset, { asset: 'eth' }), 'invalid_command', 'asset'],
  [
    'an asset name of 17 characters',
    changed(asset, { asset: 'A'.repeat(17) }),
    'invalid_command',
    'asset',
  ],
  ['19 decimals', changed(asset, { decimals: 19 }), 'invalid_decimals', 'decimals'],
  ['decimals as a bigint', changed(asset, { decimals: 8n }), 'invalid_decimals', 'decimals'],
  ['an asset that exists', changed(asset, { asset: 'BTC', decimals: 8 }), 'asset_exists', 'asset'],
];

describe.each(CORES)('configuration rules on the %s core', (_core, makeEngine) => {
  it.each(cases)('%s: refused, with its field, nothing added', (_name, cmd, code, field) => {
    const x = TestExchange.standard(makeEngine());
    const before = x.engine.stateHash();
    const rejection = x.rejected(cmd);
    expect(rejection).toMatchObject({ code, field });
    expect(x.engine.stateHash()).toBe(before);
  });

  it('accepts the market and the asset every case above changes one field of', () => {
    const x = TestExchange.standard(makeEngine());
    x.ok(market);
    x.ok(asset);
    expect(x.engine.markets().map((m) => m.name)).toContain('BTC_LTT');
  });

  it('accepts fees of 999,999 ppm, the most below 100%', () => {
    const x = TestExchange.standard(makeEngine());
    x.ok(changed(market, { makerFeePpm: 999_999, takerFeePpm: 999_999 }));
    expect(x.engine.markets().map((m) => m.name)).toContain('BTC_LTT');
  });

  it('accepts a tick, a lot and a minimum of 10^36 minor units, the most an amount may be', () => {
    const x = TestExchange.standard(makeEngine());
    x.ok(changed(market, { tickSize: 10n ** 36n, lotSize: 10n ** 36n, minAmount: 10n ** 36n }));
    expect(x.engine.markets().map((m) => m.name)).toContain('BTC_LTT');
  });
});
