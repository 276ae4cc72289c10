import type { KlineRow, OrderJson, Page } from '@lattice/contracts';
import { describe, expect, it } from 'vitest';
import { withAssetUpdate, withKlineRows, withOrderEvent } from './liveCache';

const order = (id: number, left: string): OrderJson =>
  ({ id, market: 'BTC_USDT', left, deal_stock: '0' }) as OrderJson;
const page = (...records: OrderJson[]): Page<OrderJson> => ({
  records,
  total: records.length,
  offset: 0,
  limit: 100,
});

describe('order.update on the open orders', () => {
  it('adds a put order first, replaces an updated one, removes a finished one', () => {
    let orders = withOrderEvent(page(order(1, '1')), 1, order(2, '2'));
    expect(orders?.records.map((kept) => kept.id)).toEqual([2, 1]);
    expect(orders?.total).toBe(2);
    orders = withOrderEvent(orders, 2, order(1, '0.4'));
    expect(orders?.records.map((kept) => kept.left)).toEqual(['2', '0.4']);
    expect(orders?.total).toBe(2);
    orders = withOrderEvent(orders, 3, order(2, '0'));
    expect(orders?.records.map((kept) => kept.id)).toEqual([1]);
    expect(orders?.total).toBe(1);
  });

  it('ignores the finish of an order it does not list, and a list not loaded yet', () => {
    const orders = page(order(1, '1'));
    expect(withOrderEvent(orders, 3, order(9, '0'))).toBe(orders);
    expect(withOrderEvent(undefined, 1, order(9, '1'))).toBeUndefined();
  });

  it('keeps a triggered stop listed, with its new state', () => {
    const triggered = { ...order(1, '1'), triggered: true };
    expect(withOrderEvent(page(order(1, '1')), 4, triggered)?.records).toEqual([triggered]);
  });
});

describe('asset.update on the balances', () => {
  it('replaces the available trade balance of the pushed assets only', () => {
    const rows = [
      { ticker: 'BTC', tradeAvailable: '1' },
      { ticker: 'USDT', tradeAvailable: '100' },
    ];
    expect(withAssetUpdate(rows, { USDT: { available: '70.5', freeze: '29.5' } })).toEqual([
      { ticker: 'BTC', tradeAvailable: '1' },
      { ticker: 'USDT', tradeAvailable: '70.5' },
    ]);
    expect(withAssetUpdate(rows, { ETH: { available: '2', freeze: '0' } })).toContainEqual({
      ticker: 'ETH',
      tradeAvailable: '2',
    });
  });
});

describe('kline.update on the candles', () => {
  const candle = (time: number, close: string): KlineRow => [
    time,
    '1',
    close,
    '2',
    '1',
    '0.1',
    '0.2',
    'BTC_USDT',
  ];

  it('replaces the current candle and appends the next one in time order', () => {
    const rows = [candle(60, '1'), candle(120, '1.5')];
    expect(withKlineRows(rows, [candle(120, '1.7'), candle(180, '1.8')])).toEqual([
      candle(60, '1'),
      candle(120, '1.7'),
      candle(180, '1.8'),
    ]);
  });
});
