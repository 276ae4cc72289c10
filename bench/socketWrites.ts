// The floor under the socket fan-out (`bench:ws`): what writing small buffers to each of N
// loopback TCP sockets costs bare Node.js processes, with no WebSocket, JSON or exchange code.
// W writer processes each accept N / W of the sockets; two reader processes hold the other ends
// (as the subscribers of `bench:ws` run in two child processes). Two modes:
//
// round (the default): a round is every writer writing once to each of its sockets, all writers
// at once; per pass of 20 rounds it prints the user and system CPU time of the writers per write
// and the wall time of a round (median and longest):
//   sockets: N writers: W bytes: B user us per write: U system us per write: S round ms: M max X
// With W = 1 this is one process's fan-out; W > 1 shows what dividing the writes between
// processes (socket gateways) gives on the machine at hand. Without a writer count it runs
// W = 1, then W = 2.
//
// sweep: the latency from publishing a change to a subscriber holding it, when each writer (a
// socket gateway) writes continuously. The parent publishes 20 changes a second, each stamped
// with a wall-clock time that all processes share, to every writer over IPC: 1 s of warm-up,
// then per pass 10 s. A writer walks round its sockets writing to each, in one buffer, every
// change that socket has not yet had (a change is a B-byte record carrying its id and stamp),
// yielding to the event loop every 500 sockets so that new changes come in; at the end of a
// sweep it starts the next at once if any socket is behind, and otherwise waits for a change.
// The readers split the records and put receive time minus stamp, for every record of every
// socket, into a histogram. Per pass of 10 s it prints the latency, the CPU of each writer and
// of the readers together (100 % is one core), and whether every socket had every change:
//   sweep sockets: N writers: W changes/s: 20 p50 ms: X p99 ms: Y max ms: Z writers cpu %: ...
//     received: R of E (all) changes per write: C sweeps per writer per s: S min ms: M
// (the least latency, near 0, shows that the processes' clocks agree). B must be at least 16.
// Without a writer count (`-- 10000 '' 300 sweep`) it runs W = 1, 2 and 3.
// Usage: npm run bench:socket-floor [-- sockets [writers [bytes [round|sweep]]]]
import { type ChildProcess, fork } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const rounds = 20;
const passes = 3;
const readerProcesses = 2;
/** Connections a reader opens before pausing, so that no listen backlog overflows. */
const connectBurst = 500;

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

type ChildMessage =
  | { kind: 'listening'; port: number }
  | { kind: 'accepted'; count: number }
  | { kind: 'wrote'; userUs: number; systemUs: number }
  | { kind: 'usage'; cpuUs: number; writes: number; changesWritten: number; sweeps: number }
  | { kind: 'received'; count: number }
  | { kind: 'latencies'; bins: [number, number][]; maxMs: number; minMs: number; cpuUs: number };

type Change = { id: number; stamp: number };

const [role = '', first = '', second = '', third = ''] = process.argv.slice(2);
if (role === 'writer') runWriter(Number(first));
else if (role === 'reader') await runReader(JSON.parse(first) as number[], Number(second));
else if (role === 'sweep-writer') runSweepWriter(Number(first));
else if (role === 'sweep-reader') {
  await runSweepReader(JSON.parse(first) as number[], Number(second), Number(third));
} else {
  const socketCount = Number(role || 10_000);
  const bytes = Number(second || 300);
  const sweep = process.argv[5] === 'sweep';
  for (const writerCount of first ? [Number(first)] : sweep ? [1, 2, 3] : [1, 2]) {
    if (sweep) await mainSweep(socketCount, writerCount, bytes);
    else await main(socketCount, writerCount, bytes);
  }
}

/** Accepts sockets; on each `write` message writes `bytes` to every one and reports its CPU. */
function runWriter(bytes: number): void {
  const sockets: Socket[] = [];
  const payload = Buffer.alloc(bytes, 0x61);
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    sockets.push(socket);
  });
  const send = (message: ChildMessage) => process.send?.(message);
  server.listen({ port: 0, host: '127.0.0.1', backlog: 16_384 }, () => {
    const address = server.address();
    send({ kind: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
  });
  process.on('message', async (message: string) => {
    if (message === 'count') return send({ kind: 'accepted', count: sockets.length });
    if (message === 'stop') process.exit(0);
    const before = process.cpuUsage();
    for (const socket of sockets) socket.write(payload);
    // Let the event loop finish the writes' callbacks, as a flush in the server would.
    await new Promise((resolve) => setImmediate(resolve));
    const used = process.cpuUsage(before);
    send({ kind: 'wrote', userUs: used.user, systemUs: used.system });
  });
}

/** Opens `perPort` connections to each port and reads whatever arrives. */
async function runReader(ports: number[], perPort: number): Promise<void> {
  await openConnections(ports, perPort, (socket) => socket.on('data', () => {}));
  process.on('message', () => process.exit(0));
}

/** Opens `perPort` connections to each port, a burst at a time; says `ready` when all are open. */
async function openConnections(
  ports: number[],
  perPort: number,
  watch: (socket: Socket) => void,
): Promise<void> {
  let open = 0;
  const total = ports.length * perPort;
  for (const port of ports) {
    for (let i = 0; i < perPort; i++) {
      if (i % connectBurst === connectBurst - 1) await new Promise((r) => setTimeout(r, 50));
      const socket = connect(port, '127.0.0.1');
      watch(socket);
      socket.on('connect', () => {
        open += 1;
        if (open === total) process.send?.('ready');
      });
    }
  }
}

/**
 * Accepts sockets; from the first change on, sweeps them, writing to each in one buffer the
 * changes it has not had, until every socket has every change.
 */
function runSweepWriter(bytes: number): void {
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
async function runSweepReader(ports: number[], perPort: number, bytes: number): Promise<void> {
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

function nextMessage<T extends ChildMessage['kind']>(
  child: ChildProcess,
  kind: T,
): Promise<Extract<ChildMessage, { kind: T }>> {
  return new Promise((resolve) => {
    const listener = (message: ChildMessage) => {
      if (message.kind !== kind) return;
      child.off('message', listener);
      resolve(message as Extract<ChildMessage, { kind: T }>);
    };
    child.on('message', listener);
  });
}

/** Forks the writers and readers and waits until every writer has accepted its share. */
async function startProcesses(
  socketCount: number,
  writerCount: number,
  writerArgs: string[],
  readerArgs: (ports: number[], perPort: number) => string[],
): Promise<{ writers: ChildProcess[]; readers: ChildProcess[]; expected: number }> {
  const self = fileURLToPath(import.meta.url);
  const writers = Array.from({ length: writerCount }, () => fork(self, writerArgs));
  const ports = await Promise.all(
    writers.map(async (writer) => (await nextMessage(writer, 'listening')).port),
  );
  const perPortPerReader = Math.ceil(socketCount / writerCount / readerProcesses);
  const readers = Array.from({ length: readerProcesses }, () =>
    fork(self, readerArgs(ports, perPortPerReader)),
  );
  await Promise.all(readers.map((reader) => new Promise((r) => reader.once('message', r))));
  const expected = perPortPerReader * readerProcesses;
  for (;;) {
    const counts = await Promise.all(
      writers.map((writer) => {
        const answer = nextMessage(writer, 'accepted');
        writer.send('count');
        return answer;
      }),
    );
    if (counts.every((answer) => answer.count >= expected)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { writers, readers, expected };
}

async function stopProcesses(children: ChildProcess[]): Promise<void> {
  for (const child of children) child.send('stop');
  await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
}

function printLoadAverage(): void {
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
}

async function main(socketCount: number, writerCount: number, bytes: number): Promise<void> {
  const { writers, readers, expected } = await startProcesses(
    socketCount,
    writerCount,
    ['writer', String(bytes)],
    (ports, perPort) => ['reader', JSON.stringify(ports), String(perPort)],
  );
  const writes = expected * writerCount;
  printLoadAverage();
  for (let pass = 0; pass < passes; pass++) {
    const roundMs: number[] = [];
    let userUs = 0;
    let systemUs = 0;
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      const reports = await Promise.all(
        writers.map((writer) => {
          const answer = nextMessage(writer, 'wrote');
          writer.send('write');
          return answer;
        }),
      );
      roundMs.push(performance.now() - started);
      for (const report of reports) {
        userUs += report.userUs;
        systemUs += report.systemUs;
      }
    }
    roundMs.sort((a, b) => a - b);
    console.log(
      `sockets: ${writes} writers: ${writerCount} bytes: ${bytes} ` +
        `user us per write: ${(userUs / (rounds * writes)).toFixed(2)} ` +
        `system us per write: ${(systemUs / (rounds * writes)).toFixed(2)} ` +
        `round ms: ${roundMs[Math.floor(rounds / 2)]!.toFixed(1)} max ${roundMs[rounds - 1]!.toFixed(1)}`,
    );
  }
  await stopProcesses([...writers, ...readers]);
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

/** Asks the children one question each and waits for every answer. */
function askAll<T extends ChildMessage['kind']>(
  children: ChildProcess[],
  question: string,
  kind: T,
): Promise<Extract<ChildMessage, { kind: T }>[]> {
  return Promise.all(
    children.map((child) => {
      const answer = nextMessage(child, kind);
      child.send(question);
      return answer;
    }),
  );
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

async function mainSweep(socketCount: number, writerCount: number, bytes: number): Promise<void> {
  const { writers, readers, expected } = await startProcesses(
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
