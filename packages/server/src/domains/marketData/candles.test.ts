import { describe, expect, it } from 'vitest';
import { bucketStart, type Candle, candleOf, filledCandles, foldTrade } from './candles.js';

const trade = (price: bigint, amount = 1n) => ({
  id: 1,
  market: 'BTC_USDT',
  time: 0,
  price,
  amount,
  total: price * amount,
  takerSide: 2,
});

describe('bucketStart', () => {
  it('cuts minutes, hours and days at UTC boundaries', () => {
    const t = Date.UTC(2024, 0, 3, 13, 47, 21, 500);
    expect(bucketStart(t, 60)).toBe(Date.UTC(2024, 0, 3, 13, 47));
    expect(bucketStart(t, 900)).toBe(Date.UTC(2024, 0, 3, 13, 45));
    expect(bucketStart(t, 14400)).toBe(Date.UTC(2024, 0, 3, 12));
    expect(bucketStart(t, 86400)).toBe(Date.UTC(2024, 0, 3));
  });

  it('starts weeks on Monday', () => {
    // 2024-01-03 is a Wednesday; 2024-01-01 a Monday; 2024-01-07 a Sunday.
    expect(bucketStart(Date.UTC(2024, 0, 3, 5), 604800)).toBe(Date.UTC(2024, 0, 1));
    expect(bucketStart(Date.UTC(2024, 0, 7, 23, 59), 604800)).toBe(Date.UTC(2024, 0, 1));
    expect(bucketStart(Date.UTC(2024, 0, 8), 604800)).toBe(Date.UTC(2024, 0, 8));
    expect(new Date(bucketStart(Date.UTC(1999, 11, 31), 604800)).getUTCDay()).toBe(1);
  });
});

describe('candles', () => {
  it('folds trades: open first, close last, extremes and sums', () => {
    const candle = candleOf(0, trade(100n, 2n));
    foldTrade(candle, trade(120n));
    foldTrade(candle, trade(90n, 3n));
    expect(candle).toEqual({
      time: 0,
      open: 100n,
      close: 90n,
      high: 120n,
      low: 90n,
      volume: 6n,
      amount: 200n + 120n + 270n,
      trades: 3,
    });
  });

  it('fills gaps with flat candles after the first known one, not before', () => {
    const at = (minute: number, close: bigint): Candle => ({
      ...candleOf(minute * 60_000, trade(close)),
    });
    const range = { startMs: 0, endMs: 5 * 60_000, interval: 60 as const };
    const filled = filledCandles([at(2, 50n), at(4, 70n)], undefined, range);
    expect(filled.map((c) => [c.time / 60_000, c.close, c.volume])).toEqual([
      [2, 50n, 1n],
      [3, 50n, 0n],
      [4, 70n, 1n],
      [5, 70n, 0n],
    ]);
    const withEarlier = filledCandles([at(2, 50n)], at(-3, 40n), range);
    expect(withEarlier.map((c) => c.close)).toEqual([40n, 40n, 50n, 50n, 50n, 50n]);
  });
});
