// Sweep mode of the socket floor (bench/socketWrites.ts): the parent publishes changes at a
// steady pace to every writer, each writer sweeps its sockets writing to each the changes it has
// not had, and the readers put each record's latency, from its stamp to its receipt, into a
// histogram; per pass the parent prints the latency, the CPU of the writers and the readers, and
// whether every socket had every change.
import type { ChildProcess } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import {
  askAll,
  type ChildMessage,
  openConnections,
  passes,
  printLoadAverage,
  startProcesses,
  stopProcesses,
} from './socketWritesProcesses.js';

const changesPerSecond = 20;
/** Changes published before the first pass; the readers leave them out of the histogram. */
const warmupChanges = 20;
const changesPerPass = 200;
/** Sockets a writer walks between turns of its event loop, where new changes come in. */
const sweepYieldEvery = 500;
const histogramBinMs = 0.1;
/** 5 s of bins; a later arrival goes in the last one (the exact maximum is kept apart). */
const histogramBins = 50_000;
/** How long after the last change of a pass the readers may take to have them all. */
const receiptTimeoutMs = 5_000;

type Change = { id: number; stamp: number };

/**
 * Accepts sockets; from the first change on, sweeps them, writing to each in one buffer the
 * changes it has not had, until every socket has every change.
 */
export function runSweepWriter(bytes: number): void {
  const sockets: Socket[] = [];
  const sentCounts: number[] = [];
  const changes: Buffer[] = [];
  let stats = { writes: 0, changesWritten: 0, sweeps: 0 };
  let cpuFrom = process.cpuUsage();
  let sweeping = false;
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    sockets.push(socket);
    sentCounts.push(0);
  });
  const send = (message: ChildMessage) => process.send?.(message);
  server.listen({ port: 0, host: '127.0.0.1', backlog: 16_384 }, () => {
    const address = server.address();
    send({ kind: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
  });
  const sweepUntilCurrent = async () => {
    sweeping = true;
    do {
      for (let i = 0; i < sockets.length; i++) {
        if (i % sweepYieldEvery === sweepYieldEvery - 1) {
          await new Promise((resolve) => setImmediate(resolve));
        }
        const from = sentCounts[i]!;
        const to = changes.length;
        if (from === to) continue;
        sockets[i]!.write(
          to - from === 1 ? changes[from]! : Buffer.concat(changes.slice(from, to)),
        );
        sentCounts[i] = to;
        stats.writes += 1;
        stats.changesWritten += to - from;
      }
      stats.sweeps += 1;
    } while (sentCounts.some((count) => count < changes.length));
    sweeping = false;
  };
  process.on('message', (message: string | Change) => {
    if (message === 'count') return send({ kind: 'accepted', count: sockets.length });
    if (message === 'stop') process.exit(0);
    if (message === 'measure') {
      stats = { writes: 0, changesWritten: 0, sweeps: 0 };
      cpuFrom = process.cpuUsage();
    } else if (message === 'usage') {
      const used = process.cpuUsage(cpuFrom);
      send({ kind: 'usage', cpuUs: used.user + used.system, ...stats });
    } else if (typeof message === 'object') {
      const record = Buffer.alloc(bytes, 0x61);
      record.writeUInt32LE(message.id, 0);
      record.writeDoubleLE(message.stamp, 8);
      changes.push(record);
      if (!sweeping) void sweepUntilCurrent();
    }
  });
}

/** Holds sockets of the sweep writers and records, per change received, its latency. */
export async function runSweepReader(
  ports: number[],
  perPort: number,
  bytes: number,
): Promise<void> {
  let bins = new Uint32Array(histogramBins);
  let received = 0;
  let maxMs = Number.NEGATIVE_INFINITY;
  let minMs = Number.POSITIVE_INFINITY;
  let cpuFrom = process.cpuUsage();
  await openConnections(ports, perPort, (socket) => {
    // NOTE: TCP may split a record between two reads; the start of it waits for the rest.
    let partial: Buffer | null = null;
    socket.on('data', (chunk: Buffer) => {
      const now = performance.timeOrigin + performance.now();
      const data = partial ? Buffer.concat([partial, chunk]) : chunk;
      const whole = data.length - (data.length % bytes);
      for (let offset = 0; offset < whole; offset += bytes) {
        if (data.readUInt32LE(offset) < warmupChanges) continue;
        const ms = now - data.readDoubleLE(offset + 8);
        received += 1;
        maxMs = Math.max(maxMs, ms);
        minMs = Math.min(minMs, ms);
        bins[Math.min(histogramBins - 1, Math.max(0, Math.floor(ms / histogramBinMs)))]! += 1;
      }
      partial = whole < data.length ? data.subarray(whole) : null;
    });
  });
  const send = (message: ChildMessage) => process.send?.(message);
  process.on('message', (message: string) => {
    if (message === 'stop') process.exit(0);
    if (message === 'measure') cpuFrom = process.cpuUsage();
    if (message === 'count') send({ kind: 'received', count: received });
    if (message !== 'report') return;
    const used = process.cpuUsage(cpuFrom);
    const counted: [number, number][] = [];
    for (const [bin, count] of bins.entries()) if (count > 0) counted.push([bin, count]);
    send({ kind: 'latencies', bins: counted, maxMs, minMs, cpuUs: used.user + used.system });
    bins = new Uint32Array(histogramBins);
    received = 0;
    maxMs = Number.NEGATIVE_INFINITY;
    minMs = Number.POSITIVE_INFINITY;
  });
}

/** Publishes `count` changes from `firstId` on, 20 a second, to every writer; returns the next id. */
async function publishChanges(
  writers: ChildProcess[],
  firstId: number,
  count: number,
): Promise<number> {
  const started = performance.now();
  for (let k = 0; k < count; k++) {
    const wait = started + (k * 1000) / changesPerSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const change: Change = { id: firstId + k, stamp: performance.timeOrigin + performance.now() };
    for (const writer of writers) writer.send(change);
  }
  return firstId + count;
}

/** Waits until the readers have `expected` changes between them, or the time runs out. */
async function waitForReceipt(readers: ChildProcess[], expected: number): Promise<number> {
  const deadline = performance.now() + receiptTimeoutMs;
  for (;;) {
    const answers = await askAll(readers, 'count', 'received');
    const received = answers.reduce((sum, answer) => sum + answer.count, 0);
    if (received >= expected || performance.now() > deadline) return received;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function percentileMs(bins: Map<number, number>, total: number, fraction: number): number {
  let seen = 0;
  for (const [bin, count] of [...bins].sort((a, b) => a[0] - b[0])) {
    seen += count;
    if (seen >= total * fraction) return (bin + 1) * histogramBinMs;
  }
  return Number.NaN;
}

/** Sweep mode for one writer count: a warm-up, then `passes` passes of 10 s, two lines each. */
export async function mainSweep(
  self: string,
  socketCount: number,
  writerCount: number,
  bytes: number,
): Promise<void> {
  const { writers, readers, expected } = await startProcesses(
    self,
    socketCount,
    writerCount,
    ['sweep-writer', String(bytes)],
    (ports, perPort) => ['sweep-reader', JSON.stringify(ports), String(perPort), String(bytes)],
  );
  const sockets = expected * writerCount;
  printLoadAverage();
  let nextId = await publishChanges(writers, 0, warmupChanges);
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (let pass = 0; pass < passes; pass++) {
    for (const child of [...writers, ...readers]) child.send('measure');
    const started = performance.now();
    nextId = await publishChanges(writers, nextId, changesPerPass);
    const received = await waitForReceipt(readers, changesPerPass * sockets);
    const wallMs = performance.now() - started;
    const usages = await askAll(writers, 'usage', 'usage');
    const reports = await askAll(readers, 'report', 'latencies');
    const bins = new Map<number, number>();
    for (const report of reports) {
      for (const [bin, count] of report.bins) bins.set(bin, (bins.get(bin) ?? 0) + count);
    }
    const percent = (cpuUs: number) => ((cpuUs / 1000 / wallMs) * 100).toFixed(0);
    const writes = usages.reduce((sum, usage) => sum + usage.writes, 0);
    const changesWritten = usages.reduce((sum, usage) => sum + usage.changesWritten, 0);
    const sweeps = usages.reduce((sum, usage) => sum + usage.sweeps, 0);
    console.log(
      `sweep sockets: ${sockets} writers: ${writerCount} changes/s: ${changesPerSecond} ` +
        `p50 ms: ${percentileMs(bins, received, 0.5).toFixed(1)} ` +
        `p99 ms: ${percentileMs(bins, received, 0.99).toFixed(1)} ` +
        `max ms: ${Math.max(...reports.map((report) => report.maxMs)).toFixed(1)} ` +
        `writers cpu %: ${usages.map((usage) => percent(usage.cpuUs)).join(' ')} ` +
        `readers cpu %: ${percent(reports.reduce((sum, report) => sum + report.cpuUs, 0))}`,
    );
    console.log(
      `  received: ${received} of ${changesPerPass * sockets}` +
        `${received === changesPerPass * sockets ? ' (all)' : ' (NOT ALL)'} ` +
        `changes per write: ${(changesWritten / writes).toFixed(2)} ` +
        `sweeps per writer per s: ${(sweeps / writerCount / (wallMs / 1000)).toFixed(1)} ` +
        `min ms: ${Math.min(...reports.map((report) => report.minMs)).toFixed(2)}`,
    );
  }
  await stopProcesses([...writers, ...readers]);
}
