import { describe, expect, it } from 'vitest';
import { dayMs, RollingDay } from './rollingDay.js';

const at = (time: number, price: bigint, amount = 1n) => ({
  id: 0,
  market: 'BTC_USDT',
  time,
  price,
  amount,
  total: price * amount,
  takerSide: 2,
});

describe('RollingDay', () => {
  it('is all zeros before the first trade', () => {
    expect(new RollingDay().stats(0)).toEqual({
      open: 0n,
      last: 0n,
      high: 0n,
      low: 0n,
      volume: 0n,
      deal: 0n,
    });
  });

  it('sums the last 24 hours and lets older minutes fall out', () => {
    const day = new RollingDay();
    const t0 = Date.UTC(2024, 0, 1);
    day.add(at(t0, 100n, 2n));
    day.add(at(t0 + 30_000, 130n));
    day.add(at(t0 + 3_600_000, 90n));
    day.add(at(t0 + 7_200_000, 110n));
    expect(day.stats(t0 + 7_200_000)).toEqual({
      open: 100n,
      last: 110n,
      high: 130n,
      low: 90n,
      volume: 5n,
      deal: 200n + 130n + 90n + 110n,
    });
    // A day after the first minute, that minute has left the window.
    expect(day.stats(t0 + dayMs)).toMatchObject({ open: 90n, high: 110n, low: 90n, volume: 2n });
    expect(day.stats(t0 + 3 * dayMs)).toEqual({
      open: 110n,
      last: 110n,
      high: 110n,
      low: 110n,
      volume: 0n,
      deal: 0n,
    });
  });
});
