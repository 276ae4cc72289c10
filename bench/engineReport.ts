// What the engine bench prints (bench/engine.ts): the workload's size by kind of operation
// before anything runs, then the timed passes' figures, a line each, in the order the bench's
// header describes them. The figures of a floor timed in the engine's place are labelled with
// the floor's name, so they are not read as the engine's.
import type { Engine } from '@lattice/engine';
import type { Latency, Throughput } from './engineTimedPasses.js';
import { BATCH, CANCEL, LIMIT, MARKET_ORDER, type Workload } from './engineWorkload.js';

/** The workload's operations by kind, and its seed. */
export function printOperations(w: Workload, seed: number): void {
  const counts = [0, 0, 0];
  for (let i = 0; i < w.ops.length; i++) counts[w.ops.kind[i]!]!++;
  console.log(
    `operations: ${w.ops.length} (limit ${counts[LIMIT]}, cancel ${counts[CANCEL]}, ` +
      `market ${counts[MARKET_ORDER]}), seed ${seed}`,
  );
}

/** What the timed passes measured, and what ran in them. */
export interface Results {
  /** The last engine timed, or undefined when a floor ran in its place. */
  lastEngine: Engine | undefined;
  /** The name the figures are printed under: the engine, or a floor. */
  who: string;
  latency: Latency;
  gcMs: number;
  throughput: Throughput;
  sharedGcMs: number;
}

/** The timed passes' figures, a line each. */
export function printResults(results: Results): void {
  const { lastEngine, who, latency, gcMs, throughput, sharedGcMs } = results;
  const engineOps = throughput.engineOpsPerSecond;
  const baselineOps = throughput.baselineOpsPerSecond;
  // After every operation ran through it: a hand-over to the bigint core would show here.
  if (lastEngine !== undefined) console.log(`engine core: ${lastEngine.coreName}`);
  console.log(`${who} ops/s: ${Math.round(engineOps)}`);
  console.log(`p50 us: ${latency.p50.toFixed(2)}`);
  console.log(`p99 us: ${latency.p99.toFixed(2)}`);
  console.log(`max pause ms: ${latency.longestMs.toFixed(2)}`);
  const byKind = latency.meanUsByKind;
  console.log(
    `mean us by kind: limit ${byKind[LIMIT]!.toFixed(2)}, market ${byKind[MARKET_ORDER]!.toFixed(2)}, ` +
      `cancel ${byKind[CANCEL]!.toFixed(2)}`,
  );
  console.log(`longest gc pause ms: ${gcMs.toFixed(2)}`);
  console.log(
    `with the baseline in the same heap: max pause ms ${throughput.maxPauseMs.toFixed(2)} ` +
      `(the longest ${BATCH} operations), longest gc pause ms ${sharedGcMs.toFixed(2)}`,
  );
  console.log(`baseline ops/s: ${Math.round(baselineOps)}`);
  console.log(`ratio: ${(engineOps / baselineOps).toFixed(2)}`);
  // On a shared machine wall time includes waiting for a core; CPU time does not.
  const cpuRatio = throughput.engineOpsPerCpuSecond / throughput.baselineOpsPerCpuSecond;
  console.log(
    `per CPU second: ${who} ${Math.round(throughput.engineOpsPerCpuSecond)}, ` +
      `baseline ${Math.round(throughput.baselineOpsPerCpuSecond)}, ratio ${cpuRatio.toFixed(2)}`,
  );
}
