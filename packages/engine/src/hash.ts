// A small deterministic 128-bit string hash (four 32-bit multiply-xorshift lanes). Not
// cryptographic: it tells states apart, it does not resist an adversary.

function finish(h: number): number {
  let x = h;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * The hash computed a piece at a time: `update` with consecutive pieces of a text, then
 * `digest`, gives `hashString` of the whole text. A large text (a snapshot's) can so be hashed
 * in slices between other work.
 */
export class StringHasher {
  private a = 0x9e3779b1;
  private b = 0x85ebca77;
  private c = 0xc2b2ae3d;
  private d = 0x27d4eb2f;
  private length = 0;

  /** Hashes `text` from `start` (inclusive) to `end` (exclusive) after what came before. */
  update(text: string, start = 0, end = text.length): this {
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
    return this;
  }

  /** Hex digest (32 characters) of everything hashed so far. */
  digest(): string {
    const { a, b, c, d, length: n } = this;
    return [a ^ n, b ^ c, c ^ d, d ^ a]
      .map((h) => finish(h).toString(16).padStart(8, '0'))
      .join('');
  }
}

/** Hex digest (32 characters) of a string. */
export function hashString(text: string): string {
  return new StringHasher().update(text).digest();
}
