import { hashString } from '@lattice/engine';

/**
 * The engine's state hash of a snapshot's JSON text: `engine.stateHash()` is
 * `hashString(JSON.stringify(engine.snapshot()))`. Hashing the text already serialised for
 * storage, instead of asking the engine (which serialises the whole state again), keeps a
 * snapshot to one serialisation and lets recovery check a stored snapshot without rebuilding it.
 */
export const stateHashOfSnapshotText: (text: string) => string = hashString;
