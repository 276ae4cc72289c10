/**
 * The engine's state hash of a snapshot's JSON text: `engine.stateHash()` is this function of
 * `JSON.stringify(engine.snapshot())`. Hashing the text already serialised for storage, instead
 * of asking the engine (which serialises the whole state again), halves the pause a snapshot
 * makes and lets recovery check a stored snapshot without rebuilding its text.
 *
 * NOTE: a copy of the engine's `hashString` (packages/engine/src/hash.ts), which the engine does
 * not export; `snapshotHash.test.ts` fails if the two ever differ.
 */
export function stateHashOfSnapshotText(text: string): string {
  let a = 0x9e3779b1;
  let b = 0x85ebca77;
  let c = 0xc2b2ae3d;
  let d = 0x27d4eb2f;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    a = Math.imul(a ^ ch, 0x01000193);
    b = Math.imul(b ^ ch, 0x5bd1e995);
    c = Math.imul(c ^ ch, 0x1b873593) ^ (a >>> 15);
    d = Math.imul(d ^ ch, 0xcc9e2d51) ^ (b >>> 13);
  }
  const n = text.length;
  return [a ^ n, b ^ c, c ^ d, d ^ a]
    .map((lane) => mix(lane).toString(16).padStart(8, '0'))
    .join('');
}

function mix(h: number): number {
  let x = h;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
