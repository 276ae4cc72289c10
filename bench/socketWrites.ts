// The floor under the socket fan-out (`bench:ws`): what writing one small buffer to each of N
// loopback TCP sockets costs a bare Node.js process, with no WebSocket, JSON or exchange code.
// The readers run in two child processes, as the subscribers of `bench:ws` do. Prints, per
// round of one write to every socket, the user and system CPU time per write and the wall time:
//   sockets: N bytes: B user us per write: U system us per write: S wall ms per round: W
// Usage: npx tsx bench/socketWrites.ts [sockets [bytes]]
import { fork } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const rounds = 20;
const readerProcesses = 2;
/** Connections opened at once by a reader, so the listen backlog never overflows. */
const connectBurst = 500;

if (process.argv[2] === 'reader') await runReader(Number(process.argv[3]), Number(process.argv[4]));
else await main(Number(process.argv[2] ?? 10_000), Number(process.argv[3] ?? 300));

async function runReader(port: number, count: number): Promise<void> {
  const sockets: Socket[] = [];
  let open = 0;
  for (let i = 0; i < count; i++) {
    if (i % connectBurst === connectBurst - 1) await new Promise((r) => setTimeout(r, 50));
    const socket = connect(port, '127.0.0.1');
    socket.on('data', () => {});
    socket.on('connect', () => {
      open += 1;
      if (open === count) process.send?.('ready');
    });
    sockets.push(socket);
  }
  process.on('message', () => process.exit(0));
}

async function main(socketCount: number, bytes: number): Promise<void> {
  const accepted: Socket[] = [];
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    accepted.push(socket);
  });
  await new Promise<void>((resolve) =>
    server.listen({ port: 0, host: '127.0.0.1', backlog: 16_384 }, resolve),
  );
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const readers = Array.from({ length: readerProcesses }, () =>
    fork(fileURLToPath(import.meta.url), [
      'reader',
      String(port),
      String(socketCount / readerProcesses),
    ]),
  );
  await Promise.all(
    readers.map((reader) => new Promise((resolve) => reader.once('message', resolve))),
  );
  while (accepted.length < socketCount) await new Promise((resolve) => setTimeout(resolve, 10));

  const payload = Buffer.alloc(bytes, 0x61);
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  for (let pass = 0; pass < 3; pass++) {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (let round = 0; round < rounds; round++) {
      for (const socket of accepted) socket.write(payload);
      // Let the event loop finish the writes' callbacks, as a flush in the server would.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const cpu = process.cpuUsage(cpuBefore);
    const writes = rounds * socketCount;
    console.log(
      `sockets: ${socketCount} bytes: ${bytes} user us per write: ${(cpu.user / writes).toFixed(2)} ` +
        `system us per write: ${(cpu.system / writes).toFixed(2)} ` +
        `wall ms per round: ${((performance.now() - started) / rounds).toFixed(1)}`,
    );
  }
  for (const reader of readers) reader.send('stop');
  for (const socket of accepted) socket.destroy();
  server.close();
}
