import { describe, expect, it } from 'vitest';
import { BUY, btc, CORES, MARKET, SELL, stopLimit, TestExchange, usdt } from './fixtures.js';
import { Engine, hashString, StringHasher } from './index.js';

describe.each(CORES)('queries on the %s core', (_core, makeEngine) => {
  it('depth: best first, limited, merged away from the spread', () => {
    const x = TestExchange.standard(makeEngine());
    x.fund(1, 'BTC', btc('10'));
    x.fund(2, 'USDT', usdt('1000000'));
    x.limit(1, SELL, '30000.10', '0.1');
    x.limit(1, SELL, '30000.90', '0.2');
    x.limit(1, SELL, '30001.50', '0.3');
    x.limit(2, BUY, '29999.90', '0.4');
    x.limit(2, BUY, '29999.10', '0.5');
    expect(x.engine.depth(MARKET, 2)).toEqual({
      asks: [
        [usdt('30000.10'), btc('0.1')],
        [usdt('30000.90'), btc('0.2')],
      ],
      bids: [
        [usdt('29999.90'), btc('0.4')],
        [usdt('29999.10'), btc('0.5')],
      ],
    });
    expect(x.engine.depth(MARKET, 10, usdt('1'))).toEqual({
      asks: [
        [usdt('30001'), btc('0.3')],
        [usdt('30002'), btc('0.3')],
      ],
      bids: [[usdt('29999'), btc('0.9')]],
    });
  });

  it('open orders, newest first, with waiting stops; totals per asset', () => {
    const x = TestExchange.standard(makeEngine());
    x.fund(1, 'BTC', btc('1'));
    x.fund(2, 'USDT', usdt('100000'));
    x.limit(1, SELL, '30000', '0.1');
    x.limit(2, BUY, '30000', '0.1');
    const rest = x.limit(1, SELL, '31000', '0.1');
    const stop = x.ok(stopLimit(1, SELL, '29000', '28900', '0.1'));
    const ids = x.engine.openOrders(1).map((o) => o.id);
    expect(ids).toEqual([stop.result.kind === 'order' ? stop.result.order.id : 0, rest.id]);
    expect(x.engine.openOrders(1, 'LTT_USDT')).toEqual([]);
    expect(x.engine.lastPrice(MARKET)).toBe(usdt('30000'));
    const btcTotal = x.engine.assetTotals().find((t) => t.asset === 'BTC');
    expect(btcTotal).toEqual({ asset: 'BTC', total: btc('1'), deposited: btc('1'), withdrawn: 0n });
  });

  it('hasUser: known once added or funded, not before, and not from a rejected command', () => {
    const x = TestExchange.standard(makeEngine());
    expect(x.engine.hasUser(1)).toBe(false);
    x.ok({ type: 'user.add', userId: 1 });
    expect(x.engine.hasUser(1)).toBe(true);
    expect(x.engine.hasUser(2)).toBe(false);
    x.fund(2, 'USDT', usdt('1'));
    expect(x.engine.hasUser(2)).toBe(true);
    x.apply({ type: 'user.add', userId: -3 });
    expect(x.engine.hasUser(-3)).toBe(false);
    const restored = Engine.restore(x.engine.snapshot());
    expect(restored.hasUser(1)).toBe(true);
    expect(restored.hasUser(3)).toBe(false);
  });
});

describe('hashString', () => {
  it('keeps its digests (stored snapshots carry them), in one piece or in several', () => {
    const known: [string, string][] = [
      ['', '11fd02eb4654c0288dbfc7c77cf9b584'],
      ['abc', '4af45f3c1d6eb8f73410cb399e9e4d11'],
      ['{"version":2}', '6763e1877cb1939f8c2d8ca718c88d35'],
      ['é€😀', '172c424ca7aa52f025bebfa09d09043e'],
    ];
    for (const [text, digest] of known) {
      expect(hashString(text)).toBe(digest);
      const cut = Math.floor(text.length / 2);
      expect(new StringHasher().update(text, 0, cut).update(text, cut).digest()).toBe(digest);
    }
  });

  it('is exported: deterministic, 32 hex digits, tells strings apart', () => {
    expect(hashString('abc')).toMatch(/^[0-9a-f]{32}$/);
    expect(hashString('abc')).toBe(hashString('abc'));
    expect(hashString('abc')).not.toBe(hashString('abd'));
    expect(hashString('')).not.toBe(hashString('\u0000'));
  });
});
