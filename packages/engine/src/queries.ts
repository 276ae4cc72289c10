// Read-only views computed from the book.
import type { BookSide, Market } from './market.js';
import type { DepthView } from './types.js';

/**
 * Up to `limit` levels of one side, best first. With a merge step, prices are grouped to
 * multiples of it, rounded away from the spread (asks up, bids down) as upstream does.
 */
function sideDepth(side: BookSide, limit: number, step: bigint): [bigint, bigint][] {
  const out: [bigint, bigint][] = [];
  for (let i = 0; i < side.levelCount; i++) {
    const level = side.levelAt(i)!;
    let price = level.price;
    if (step > 0n) {
      const down = price - (price % step);
      price = side.isAsk && down !== price ? down + step : down;
    }
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === price) {
      last[1] += level.total;
      continue;
    }
    if (out.length === limit) break;
    out.push([price, level.total]);
  }
  return out;
}

export function queryDepth(m: Market, limit: number, mergeStep?: bigint): DepthView {
  const n = Number.isSafeInteger(limit) && limit > 0 ? limit : 0;
  const step = mergeStep !== undefined && mergeStep > 0n ? mergeStep : 0n;
  return { asks: sideDepth(m.asks, n, step), bids: sideDepth(m.bids, n, step) };
}
