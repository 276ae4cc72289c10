// The load the end-to-end benchmark offers an HTTP server, and what it measures of it: signed-in
// keep-alive clients in this process, closed loops (each client's next request as soon as the
// previous is answered) in rounds that alternate between the servers compared, paced open
// loops, and CPU time from /proc (Linux).
import { readdirSync, readFileSync } from 'node:fs';
import type { HttpSession } from '../packages/server/src/engineHost/harness/httpSession.js';

// Linux's USER_HZ, the unit of /proc/<pid>/stat times, is 100 on every common platform.
const clockTicksPerSecond = 100;
/** Connections each `HttpSession` keeps (its agent's `maxSockets`). */
export const connectionsPerSession = 4;

/** One client's next request: place a resting order, or cancel the one it placed. */
export interface Trader {
  readonly session: HttpSession;
  readonly side: 'buy' | 'sell';
  resting: number[];
  sequence: number;
}

/** One of the servers compared: its clients, their request, its process. */
export interface Side {
  readonly traders: Trader[];
  readonly send: (trader: Trader) => Promise<boolean>;
  readonly pid: number | undefined;
}

export interface Measured {
  count: number;
  failed: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** How long the phase ran. */
  seconds: number;
}

/** A side's closed loops over all its rounds, with the CPU time spent on them. */
export interface ClosedLoopRun extends Measured {
  /** The server's CPU time per request, all its threads; null where /proc is missing. */
  cpu: number | null;
  /** The same by thread (`threadCpuPer`). */
  threads: string;
  /** This process's (the clients') CPU time per request. */
  clientCpu: number;
}

/**
 * The closed loops of the servers in alternating rounds (each in turn, and again), so that a
 * change in what else the machine runs falls on all alike instead of on whichever ran in that
 * stretch. Rates and percentiles are over all of a side's rounds; CPU time is the sum of each
 * process's use during its own rounds only. `roundRatios[i][r]` is side i's rate in round r over
 * the last side's.
 */
export async function alternatingClosedLoops(
  sides: readonly Side[],
  rounds: number,
  roundSeconds: number,
): Promise<{ runs: ClosedLoopRun[]; roundRatios: number[][] }> {
  const totals = sides.map(() => ({
    latencies: [] as number[],
    seconds: 0,
    failed: 0,
    cpu: 0 as number | null,
    clientMs: 0,
    threads: new Map<number, number>(),
  }));
  const roundRatios: number[][] = sides.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const rates: number[] = [];
    for (const [i, side] of sides.entries()) {
      const total = totals[i]!;
      const cpuBefore = cpuMs(side.pid);
      const threadsAtStart = threadCpuMs(side.pid);
      const clientBefore = processCpuMs();
      const result = await closedLoop(side.traders, roundSeconds, side.send, total.latencies);
      total.clientMs += processCpuMs() - clientBefore;
      total.cpu = addCpu(total.cpu, cpuBefore, cpuMs(side.pid));
      addThreadUse(total.threads, threadsAtStart, threadCpuMs(side.pid));
      total.seconds += result.seconds;
      total.failed += result.failed;
      rates.push(result.perSecond);
    }
    for (const [i, rate] of rates.entries()) roundRatios[i]!.push(rate / rates[rates.length - 1]!);
  }
  const runs = totals.map((total, i) => {
    const run = measured(total.latencies, total.failed, total.seconds);
    return {
      ...run,
      cpu: total.cpu === null || run.count === 0 ? null : total.cpu / run.count,
      threads: threadCpuPer(total.threads, run.count, sides[i]!.pid),
      clientCpu: total.clientMs / Math.max(1, run.count),
    };
  });
  return { runs, roundRatios };
}

/** Every trader sends its next request as soon as the previous one is answered. */
export async function closedLoop(
  traders: Trader[],
  durationSeconds: number,
  send: (trader: Trader) => Promise<boolean>,
  allLatencies?: number[],
): Promise<Measured> {
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  const end = started + durationSeconds * 1000;
  await Promise.all(
    traders.map(async (trader) => {
      while (performance.now() < end) {
        const sent = performance.now();
        if (await send(trader)) latencies.push(performance.now() - sent);
        else failed++;
      }
    }),
  );
  if (allLatencies) for (const latency of latencies) allLatencies.push(latency);
  return measured(latencies, failed, (performance.now() - started) / 1000);
}

/**
 * Requests leave at a fixed pace whatever the answers (open loop), spread over the traders;
 * latency counts from the moment a request was due, so queueing in the client counts too.
 * Each trader may have as many requests in flight as its session has connections
 * (`HttpSession`'s agent keeps 4), so that the client's own connection limit does not hold
 * requests back at the offered rate; `queuedInClient` is the most requests that were due and
 * waiting for a free connection at once (0 when the client never held one back).
 */
export async function fixedRate(
  traders: Trader[],
  rate: number,
  durationSeconds: number,
  send: (trader: Trader) => Promise<boolean>,
): Promise<Measured & { queuedInClient: number }> {
  const latencies: number[] = [];
  let failed = 0;
  let issued = 0;
  let queuedInClient = 0;
  const inFlight = new Set<Promise<void>>();
  const idle = Array.from({ length: connectionsPerSession }, () => traders).flat();
  const waiting: number[] = [];
  const started = performance.now();
  const total = Math.round(rate * durationSeconds);
  const dispatch = () => {
    while (waiting.length > 0 && idle.length > 0) {
      const due = waiting.shift()!;
      const trader = idle.pop()!;
      const task = send(trader).then((ok) => {
        if (ok) latencies.push(performance.now() - due);
        else failed++;
        idle.push(trader);
        inFlight.delete(task);
        dispatch();
      });
      inFlight.add(task);
    }
  };
  while (issued < total) {
    const now = performance.now();
    const dueCount = Math.min(total, Math.floor(((now - started) * rate) / 1000));
    for (; issued < dueCount; issued++) waiting.push(started + (issued * 1000) / rate);
    dispatch();
    queuedInClient = Math.max(queuedInClient, waiting.length);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  while (waiting.length > 0 || inFlight.size > 0) {
    dispatch();
    await Promise.race([...inFlight, new Promise((resolve) => setTimeout(resolve, 5))]);
  }
  return { ...measured(latencies, failed, (performance.now() - started) / 1000), queuedInClient };
}

export function measured(latencies: number[], failed: number, elapsedSeconds: number): Measured {
  latencies.sort((a, b) => a - b);
  const at = (fraction: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))] ?? 0;
  return {
    count: latencies.length,
    failed,
    perSecond: latencies.length / elapsedSeconds,
    p50: at(0.5),
    p99: at(0.99),
    seconds: elapsedSeconds,
  };
}

/** `sum` plus the CPU time between two readings; null once any reading was unavailable. */
function addCpu(sum: number | null, before: number | null, after: number | null): number | null {
  return sum === null || before === null || after === null ? null : sum + after - before;
}

/** This process's CPU time so far, user and system, in ms. */
function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Adds each thread's CPU time between two readings to `sum`. */
export function addThreadUse(
  sum: Map<number, number>,
  before: Map<number, number>,
  after: Map<number, number>,
): void {
  for (const [tid, ms] of after) sum.set(tid, (sum.get(tid) ?? 0) + ms - (before.get(tid) ?? 0));
}

/** User plus system CPU milliseconds a process has used so far; null where /proc is missing. */
function cpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
  } catch {
    return null;
  }
}

/** User plus system CPU milliseconds of each of a process's threads, by thread id. */
export function threadCpuMs(pid: number | undefined): Map<number, number> {
  const times = new Map<number, number>();
  if (pid === undefined) return times;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
        .split(') ')[1]!
        .split(' ');
      times.set(
        Number(tid),
        ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond,
      );
    }
  } catch {
    // A thread that ended between the listing and the read; the rest stand.
  }
  return times;
}

/**
 * Per order, the main thread's CPU time and that of the busiest other threads (Node names them
 * all "node": the commit worker is the busiest of them under this load), from each thread's
 * CPU milliseconds over the measured rounds. In the host-alone phase, the threads are this
 * process's, the idle client threads of the phases before among them.
 */
export function threadCpuPer(
  used: Map<number, number>,
  count: number,
  pid: number | undefined,
): string {
  if (count === 0 || used.size === 0) return 'not available';
  const main = (used.get(pid ?? -1) ?? 0) / count;
  const others = [...used]
    .filter(([tid]) => tid !== pid)
    .map(([, ms]) => ms / count)
    .sort((a, b) => b - a);
  const busiest = others.slice(0, 3);
  const rest = others.slice(3);
  return (
    `main ${main.toFixed(3)} ms, busiest others ${busiest.map((ms) => ms.toFixed(3)).join(' / ')} ms, ` +
    `the remaining ${rest.length} together ${rest.reduce((sum, ms) => sum + ms, 0).toFixed(3)} ms`
  );
}
