// What bench/ws.ts prints per subscriber count, from the children's histograms and the
// server's push statistics: the headline line (p50, p99 and the server's CPU), then depth and
// deals apart, then what the fan-out cost the server per socket write.
import type { PushStats } from '../packages/server/src/realtime/hub.js';
import { binCount, binsPerMs, type ClientReport } from './wsBase.js';

/** The headline line of one subscriber count, then its depth and deals apart. */
export function printLine(count: number, reports: ClientReport[], cpuPercent: number): void {
  const depth = merged(reports.map((report) => report.depthBins));
  const deals = merged(reports.map((report) => report.dealsBins));
  const all = merged([depth, deals]);
  const frames = reports.reduce((sum, report) => sum + report.frames, 0);
  const closed = reports.reduce((sum, report) => sum + report.closed, 0);
  const unmatched = reports.reduce((sum, report) => sum + report.unmatched, 0);
  const ms = (bins: number[], fraction: number) => percentile(bins, fraction).toFixed(1);
  console.log(
    `subscribers: ${count} p50 ms: ${ms(all, 0.5)} p99 ms: ${ms(all, 0.99)} server cpu %: ${cpuPercent.toFixed(0)}`,
  );
  console.log(
    `  depth p50/p99 ${ms(depth, 0.5)}/${ms(depth, 0.99)} ms (${total(depth)} samples), ` +
      `deals p50/p99 ${ms(deals, 0.5)}/${ms(deals, 0.99)} ms (${total(deals)} samples), ` +
      `${frames} frames received, ${closed} sockets closed, ${unmatched} changes not stamped`,
  );
}

/**
 * What the fan-out cost the server during the run: flushes, their length and wall time per
 * socket write, and the server process's CPU time (all of its work) per socket write.
 */
export function printPushes(
  before: Readonly<PushStats>,
  after: Readonly<PushStats>,
  serverCpuMs: number,
): void {
  const flushes = after.flushes - before.flushes;
  const busyMs = after.busyMs - before.busyMs;
  const writes = after.socketWrites - before.socketWrites;
  console.log(
    `  server: ${flushes} flushes, mean ${(busyMs / Math.max(1, flushes)).toFixed(1)} ms, ` +
      `longest so far ${after.longestMs.toFixed(1)} ms, ${writes} socket writes, ` +
      `${((busyMs * 1000) / Math.max(1, writes)).toFixed(1)} µs a write, ` +
      `server CPU ${((serverCpuMs * 1000) / Math.max(1, writes)).toFixed(1)} µs a write`,
  );
}

function merged(histograms: readonly number[][]): number[] {
  const bins = new Array<number>(binCount + 1).fill(0);
  for (const histogram of histograms) {
    for (let i = 0; i < histogram.length; i++) bins[i]! += histogram[i]!;
  }
  return bins;
}

function total(bins: readonly number[]): number {
  return bins.reduce((sum, n) => sum + n, 0);
}

function percentile(bins: readonly number[], fraction: number): number {
  const wanted = total(bins) * fraction;
  let seen = 0;
  for (let i = 0; i < bins.length; i++) {
    seen += bins[i]!;
    if (seen >= wanted && seen > 0) return i / binsPerMs;
  }
  return 0;
}
