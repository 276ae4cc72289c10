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
//
// This file reads the arguments and runs the part this process plays (the parent, or a child
// forked from this same file in its role); the parts are beside it: socketWritesRound.ts and
// socketWritesSweep.ts (each mode's writer, reader and passes), and socketWritesProcesses.ts
// (forking, talking to and stopping the children).
import { fileURLToPath } from 'node:url';
import { mainRound, runReader, runWriter } from './socketWritesRound.js';
import { mainSweep, runSweepReader, runSweepWriter } from './socketWritesSweep.js';

/** This file: the parent forks it again as each writer and reader, in its role. */
const self = fileURLToPath(import.meta.url);

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
    if (sweep) await mainSweep(self, socketCount, writerCount, bytes);
    else await mainRound(self, socketCount, writerCount, bytes);
  }
}
