// The processes of the socket floor (bench/socketWrites.ts) and how the parent talks to them,
// in either mode: forking the writers and the readers and waiting until every socket is open,
// the readers' connections opened a burst at a time, the messages the children answer with, and
// stopping them all.
import { type ChildProcess, fork } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';

/** Passes per writer count, in either mode. */
export const passes = 3;
const readerProcesses = 2;
/** Connections a reader opens before pausing, so that no listen backlog overflows. */
const connectBurst = 500;

/** What the children say to the parent, in either mode. */
export type ChildMessage =
  | { kind: 'listening'; port: number }
  | { kind: 'accepted'; count: number }
  | { kind: 'wrote'; userUs: number; systemUs: number }
  | { kind: 'usage'; cpuUs: number; writes: number; changesWritten: number; sweeps: number }
  | { kind: 'received'; count: number }
  | { kind: 'latencies'; bins: [number, number][]; maxMs: number; minMs: number; cpuUs: number };

/** Opens `perPort` connections to each port, a burst at a time; says `ready` when all are open. */
export async function openConnections(
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

/** The child's next message of this kind. */
export function nextMessage<T extends ChildMessage['kind']>(
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

/** Asks the children one question each and waits for every answer. */
export function askAll<T extends ChildMessage['kind']>(
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

/**
 * Forks the writers and readers (`self`, the bench's entry file, in each one's role) and waits
 * until every writer has accepted its share.
 */
export async function startProcesses(
  self: string,
  socketCount: number,
  writerCount: number,
  writerArgs: string[],
  readerArgs: (ports: number[], perPort: number) => string[],
): Promise<{ writers: ChildProcess[]; readers: ChildProcess[]; expected: number }> {
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

/** Stops the children and waits until every one has exited. */
export async function stopProcesses(children: ChildProcess[]): Promise<void> {
  for (const child of children) child.send('stop');
  await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
}

/** The machine's load average, before a mode's passes. */
export function printLoadAverage(): void {
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
}
