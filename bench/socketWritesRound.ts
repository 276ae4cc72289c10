// Round mode of the socket floor (bench/socketWrites.ts): a writer writes the same buffer once to
// each of its sockets on each `write` and reports the CPU time that took; a reader only reads.
// A round is every writer writing at once; per pass the parent prints the writers' user and
// system CPU time per write and the wall time of a round.
import { createServer, type Socket } from 'node:net';
import {
  type ChildMessage,
  nextMessage,
  openConnections,
  passes,
  printLoadAverage,
  startProcesses,
  stopProcesses,
} from './socketWritesProcesses.js';

const rounds = 20;

/** Accepts sockets; on each `write` message writes `bytes` to every one and reports its CPU. */
export function runWriter(bytes: number): void {
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
export async function runReader(ports: number[], perPort: number): Promise<void> {
  await openConnections(ports, perPort, (socket) => socket.on('data', () => {}));
  process.on('message', () => process.exit(0));
}

/** Round mode for one writer count: `passes` passes of `rounds` rounds, a line each. */
export async function mainRound(
  self: string,
  socketCount: number,
  writerCount: number,
  bytes: number,
): Promise<void> {
  const { writers, readers, expected } = await startProcesses(
    self,
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
