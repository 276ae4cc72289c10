// The floor under the socket fan-out (`bench:ws`): what writing one small buffer to each of N
// loopback TCP sockets costs bare Node.js processes, with no WebSocket, JSON or exchange code.
// W writer processes each accept N / W of the sockets; two reader processes hold the other ends
// (as the subscribers of `bench:ws` run in two child processes). A round is every writer writing
// once to each of its sockets, all writers at once; per pass of 20 rounds it prints the user and
// system CPU time of the writers per write and the wall time of a round (median and longest):
//   sockets: N writers: W bytes: B user us per write: U system us per write: S round ms: M max X
// With W = 1 this is one process's fan-out; W > 1 shows what dividing the writes between
// processes (socket gateways) gives on the machine at hand. Without a writer count it runs
// W = 1, then W = 2.
// Usage: npm run bench:socket-floor [-- sockets [writers [bytes]]]
import { type ChildProcess, fork } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const rounds = 20;
const passes = 3;
const readerProcesses = 2;
/** Connections a reader opens before pausing, so that no listen backlog overflows. */
const connectBurst = 500;

type WriterMessage =
  | { kind: 'listening'; port: number }
  | { kind: 'accepted'; count: number }
  | { kind: 'wrote'; userUs: number; systemUs: number };

const [role = '', first = '', second = ''] = process.argv.slice(2);
if (role === 'writer') runWriter(Number(first));
else if (role === 'reader') await runReader(JSON.parse(first) as number[], Number(second));
else {
  const socketCount = Number(role || 10_000);
  const bytes = Number(second || 300);
  for (const writerCount of first ? [Number(first)] : [1, 2]) {
    await main(socketCount, writerCount, bytes);
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
  const send = (message: WriterMessage) => process.send?.(message);
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
  let open = 0;
  const total = ports.length * perPort;
  for (const port of ports) {
    for (let i = 0; i < perPort; i++) {
      if (i % connectBurst === connectBurst - 1) await new Promise((r) => setTimeout(r, 50));
      const socket = connect(port, '127.0.0.1');
      socket.on('data', () => {});
      socket.on('connect', () => {
        open += 1;
        if (open === total) process.send?.('ready');
      });
    }
  }
  process.on('message', () => process.exit(0));
}

function nextMessage<T extends WriterMessage['kind']>(
  child: ChildProcess,
  kind: T,
): Promise<Extract<WriterMessage, { kind: T }>> {
  return new Promise((resolve) => {
    const listener = (message: WriterMessage) => {
      if (message.kind !== kind) return;
      child.off('message', listener);
      resolve(message as Extract<WriterMessage, { kind: T }>);
    };
    child.on('message', listener);
  });
}

async function main(socketCount: number, writerCount: number, bytes: number): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  const writers = Array.from({ length: writerCount }, () => fork(self, ['writer', String(bytes)]));
  const ports = await Promise.all(
    writers.map(async (writer) => (await nextMessage(writer, 'listening')).port),
  );
  const perPortPerReader = Math.ceil(socketCount / writerCount / readerProcesses);
  const readers = Array.from({ length: readerProcesses }, () =>
    fork(self, ['reader', JSON.stringify(ports), String(perPortPerReader)]),
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

  const writes = expected * writerCount;
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
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
  for (const child of [...writers, ...readers]) child.send('stop');
  await Promise.all(
    [...writers, ...readers].map((child) => new Promise((resolve) => child.once('exit', resolve))),
  );
}
