// The replica's worker thread: an engine that follows the journal and takes the snapshots, so
// that the sequencer never stops for one (see `snapshotReplica.ts`, which starts it). Bundled
// as its own entry (`dist/replicaWorker.js`) beside the server.
import { parentPort } from 'node:worker_threads';
import { ReplicaEngine } from './replicaEngine.js';
import type { ReplicaMessage } from './snapshotReplica.js';
import { lowerThreadPriority } from './threadPriority.js';

const port = parentPort;
if (!port) throw new Error('the engine replica runs in a worker thread');
// NOTE: the replica is background work. A snapshot at 100,000 resting orders is hundreds of ms
// of its CPU, and on a machine with few cores that was taken from the event loop and the commit
// worker; at nice 10 it gets what they leave. It still keeps up: following the journal costs it
// a few µs per command.
lowerThreadPriority(10);
let replica: ReplicaEngine | null = null;

function replicaOrThrow(): ReplicaEngine {
  if (!replica) throw new Error('the engine replica received entries before its start state');
  return replica;
}

// NOTE: messages are handled in the order posted, and a snapshot's state is captured the
// moment its request is handled, so it includes exactly the entries posted before it. Any error
// is thrown out of the worker: it stops, and the host takes no more snapshots.
port.on('message', (message: ReplicaMessage) => {
  if (message.kind === 'restore') {
    replica = ReplicaEngine.restore(message.journalSeq, message.data);
  } else if (message.kind === 'entries') {
    replicaOrThrow().append(message);
  } else {
    const started = performance.now();
    void replicaOrThrow()
      .snapshotRow(message.createdAt)
      .then((row) =>
        port.postMessage({ id: message.id, row, ms: performance.now() - started }, [
          row.gzip.buffer as ArrayBuffer,
        ]),
      );
  }
});
