import { hashString } from '@lattice/engine';

/**
 * The engine's state hash of a snapshot's JSON text: `engine.stateHash()` is
 * `hashString(JSON.stringify(engine.snapshot()))`. Hashing the text already serialised for
 * storage, instead of asking the engine (which serialises the whole state again), keeps a
 * snapshot to one serialisation and lets recovery check a stored snapshot without rebuilding it.
 */
export const stateHashOfSnapshotText: (text: string) => string = hashString;

/**
 * The same hash computed a piece at a time, so that a snapshot's text (17 MB at 100,000 resting
 * orders, about 0.1 s to hash) is hashed between requests instead of in one pause.
 *
 * NOTE: `hashString` (packages/engine/src/hash.ts) takes the whole text in one call, so this is
 * its loop with the lanes kept between calls; `snapshotHash.test.ts` fails if the two differ.
 */
export class SnapshotHasher {
  private a = 0x9e3779b1;
  private b = 0x85ebca77;
  private c = 0xc2b2ae3d;
  private d = 0x27d4eb2f;
  private length = 0;

  /** Hashes `text` from `start` (inclusive) to `end` (exclusive) after what came before. */
  update(text: string, start = 0, end = text.length): void {
    let { a, b, c, d } = this;
    for (let i = start; i < end; i++) {
      const ch = text.charCodeAt(i);
      a = Math.imul(a ^ ch, 0x01000193);
      b = Math.imul(b ^ ch, 0x5bd1e995);
      c = Math.imul(c ^ ch, 0x1b873593) ^ (a >>> 15);
      d = Math.imul(d ^ ch, 0xcc9e2d51) ^ (b >>> 13);
    }
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
    this.length += end - start;
  }

  digest(): string {
    const { a, b, c, d, length: n } = this;
    return [a ^ n, b ^ c, c ^ d, d ^ a]
      .map((lane) => mix(lane).toString(16).padStart(8, '0'))
      .join('');
  }
}

function mix(h: number): number {
  let x = h;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
