// A small deterministic 128-bit string hash (four 32-bit multiply-xorshift lanes). Not
// cryptographic: it tells states apart, it does not resist an adversary.

const SEEDS = [0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f] as const;

function finish(h: number): number {
  let x = h;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Hex digest (32 characters) of a string. */
export function hashString(text: string): string {
  let a: number = SEEDS[0];
  let b: number = SEEDS[1];
  let c: number = SEEDS[2];
  let d: number = SEEDS[3];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    a = Math.imul(a ^ ch, 0x01000193);
    b = Math.imul(b ^ ch, 0x5bd1e995);
    c = Math.imul(c ^ ch, 0x1b873593) ^ (a >>> 15);
    d = Math.imul(d ^ ch, 0xcc9e2d51) ^ (b >>> 13);
  }
  const n = text.length;
  return [a ^ n, b ^ c, c ^ d, d ^ a].map((h) => finish(h).toString(16).padStart(8, '0')).join('');
}
