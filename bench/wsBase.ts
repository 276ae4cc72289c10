// What both sides of bench/ws.ts share, the server's process and the subscribers' child
// processes: the market, the clock they both stamp with, the latency histogram's bins, and the
// two messages between them (when the server published each probe's changes, and what a child's
// sampled subscribers saw of them).

export const market = 'BTC_USDT';
/** Histogram bins of 0.1 ms up to 10 s. */
export const binsPerMs = 10;
export const binCount = 100_000;

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes. */
export const now = () => performance.timeOrigin + performance.now();

/** When the server published each probe's changes, by probe price in cents. */
export interface Published {
  cents: number[];
  put: number[];
  deal: number[];
}

export interface ClientReport {
  depthBins: number[];
  dealsBins: number[];
  /** Changes seen whose publication was not stamped (should be 0). */
  unmatched: number;
  frames: number;
  closed: number;
}
