// The engine bench's timed passes (bench/engine.ts): the warm-up before any of them, the
// latency pass (each apply() of a contender alone in the heap timed on its own), the throughput
// pass (the contender and the baseline in alternating chunks, in wall and CPU time), and the
// collected heap and garbage collection pauses around each. The figures they return are
// printed by engineReport.ts.
import { PerformanceObserver } from 'node:perf_hooks';
import type { OrderBook } from 'nodejs-order-book';
import { driveBaselineThrough, freshBaseline } from './baselineBook.js';
import type { Contender } from './engineContenders.js';
import {
  BATCH,
  CHUNK,
  commandAt,
  type Ops,
  SETUP_TIME,
  WARM_UP,
  type Workload,
} from './engineWorkload.js';

export interface Throughput {
  engineOpsPerSecond: number;
  baselineOpsPerSecond: number;
  /** The same per second of this process's CPU time (GC threads included). */
  engineOpsPerCpuSecond: number;
  baselineOpsPerCpuSecond: number;
  maxPauseMs: number;
}

function cpuMicros(from: NodeJS.CpuUsage, to: NodeJS.CpuUsage): number {
  return to.user - from.user + (to.system - from.system);
}

/**
 * Both contenders over all operations, in alternating chunks, so that a change of load on the
 * machine during the run touches both alike. Each one's time is the sum of its chunks.
 */
export function runThroughput(w: Workload, engine: Contender, book: OrderBook): Throughput {
  const { ops, amounts } = w;
  let engineNs = 0n;
  let baselineNs = 0n;
  let engineCpuUs = 0;
  let baselineCpuUs = 0;
  let longest = 0n;
  let rejected = 0;
  for (let from = 0; from < ops.length; from += CHUNK) {
    const to = Math.min(ops.length, from + CHUNK);
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    let batchStart = start;
    for (let i = from; i < to; i++) {
      if (!engine.apply(commandAt(ops, amounts, i, SETUP_TIME + 1 + i)).ok) rejected++;
      if (i % BATCH === BATCH - 1) {
        engine.releaseResults?.();
        const now = process.hrtime.bigint();
        if (now - batchStart > longest) longest = now - batchStart;
        batchStart = now;
      }
    }
    const middle = process.hrtime.bigint();
    const cpuMiddle = process.cpuUsage();
    driveBaselineThrough(book, w, from, to);
    baselineNs += process.hrtime.bigint() - middle;
    engineNs += middle - start;
    engineCpuUs += cpuMicros(cpuStart, cpuMiddle);
    baselineCpuUs += cpuMicros(cpuMiddle, process.cpuUsage());
  }
  if (rejected > 0) console.log(`engine rejections: ${rejected}`);
  return {
    engineOpsPerSecond: ops.length / (Number(engineNs) / 1e9),
    baselineOpsPerSecond: ops.length / (Number(baselineNs) / 1e9),
    engineOpsPerCpuSecond: ops.length / (engineCpuUs / 1e6),
    baselineOpsPerCpuSecond: ops.length / (baselineCpuUs / 1e6),
    maxPauseMs: Number(longest) / 1e6,
  };
}

/** Each apply() of `engine` over the workload timed on its own: its percentiles, longest, means. */
export function runEngineLatency(w: Workload, engine: Contender): Latency {
  const { ops, amounts } = w;
  const samples = new Float64Array(ops.length);
  for (let i = 0; i < ops.length; i++) {
    const cmd = commandAt(ops, amounts, i, SETUP_TIME + 1 + i);
    const start = process.hrtime.bigint();
    engine.apply(cmd);
    samples[i] = Number(process.hrtime.bigint() - start);
    if (i % BATCH === BATCH - 1) engine.releaseResults?.();
  }
  const meanUsByKind = meansByKind(ops, samples);
  samples.sort();
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { p50: at(0.5) / 1000, p99: at(0.99) / 1000, longestMs: at(1) / 1e6, meanUsByKind };
}

export interface Latency {
  p50: number;
  p99: number;
  longestMs: number;
  /** Mean µs of an apply() of each kind of operation (LIMIT, MARKET_ORDER, CANCEL). */
  meanUsByKind: number[];
}

/**
 * The mean of each kind's samples (ns), in µs: where the time goes, per kind, and so where a
 * contender gains or loses against another on the same workload.
 */
function meansByKind(ops: Ops, samples: Float64Array): number[] {
  const sums = [0, 0, 0];
  const counts = [0, 0, 0];
  for (let i = 0; i < ops.length; i++) {
    const kind = ops.kind[i]!;
    sums[kind]! += samples[i]!;
    counts[kind]!++;
  }
  return sums.map((sum, kind) => (counts[kind] === 0 ? 0 : sum / counts[kind]! / 1000));
}

/**
 * Both contenders through the workload's first WARM_UP operations on copies that are then
 * dropped, before anything is timed: the JIT has compiled every path the timed passes take (the
 * seed orders are only limit orders), and the heap's young generation has grown to the size the
 * workload keeps it at. Without it the alone pass's longest pause was, in about one run in
 * three, a 15 to 17 ms scavenge near its start (--trace-gc): startup, not the engine's steady
 * state, which is what the pause goal is about.
 */
export function warmUp(w: Workload, fresh: (w: Workload) => Contender): void {
  const count = Math.min(w.ops.length, WARM_UP);
  const contender = fresh(w);
  for (let i = 0; i < count; i++) {
    contender.apply(commandAt(w.ops, w.amounts, i, SETUP_TIME + 1 + i));
    if (i % BATCH === BATCH - 1) contender.releaseResults?.();
  }
  driveBaselineThrough(freshBaseline(w), w, 0, count);
}

/**
 * A full collection before a timed pass, when node runs with --expose-gc (bench/bundled.ts
 * passes it): the workload's generation and the contenders' seeding leave garbage behind (the
 * generating engine among it), and collecting it would otherwise fall in the first thousands
 * of timed operations, on whichever contender ran then.
 */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** `run` on `contender` from a collected heap, with the longest collection pause during it. */
export function withCollectedHeap<T>(
  contender: Contender,
  run: (contender: Contender) => T,
): { result: T; gcMs: Promise<number> } {
  collectGarbage();
  return longestGcPause(() => run(contender));
}

/** The longest garbage collection pause seen while `run` runs. */
function longestGcPause<T>(run: () => T): { result: T; gcMs: Promise<number> } {
  let longest = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  const result = run();
  // GC entries are delivered asynchronously: read them after the event loop has turned.
  const gcMs = new Promise<number>((resolve) =>
    setTimeout(() => {
      for (const entry of observer.takeRecords()) longest = Math.max(longest, entry.duration);
      observer.disconnect();
      resolve(longest);
    }, 100),
  );
  return { result, gcMs };
}
