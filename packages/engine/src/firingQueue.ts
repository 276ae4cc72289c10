// A market's waiting stops of one direction, in the order they fire, for both cores: a sorted
// list cut into chunks of at most MAX items. Placing or cancelling one stop among n is two binary
// searches and a move of at most MAX items, and firing the next takes the front of the first
// chunk. As one array, each firing or cancel moved every stop behind it (a command firing or
// cancelling n stops took time in n²: seconds at 50,000 to 150,000), and a stop placed or
// cancelled among 100,000 others still moved them: 60 to 90 µs a pair on the columnar core
// (docs/decisions/columnar-engine.md, "Stops fired, placed and cancelled without moving the
// others").
import { assert } from './errors.js';

/** The most items in a chunk; a chunk that would hold more is cut in two. */
const MAX = 512;
/** A chunk down to half this many is merged with a neighbour when the two fit in this many. */
const MERGE = MAX >>> 1;

/**
 * Items in firing order, each at most once, kept sorted by `before`: true when `a` fires before
 * `b`. It must be a strict total order on the items in the queue (the cores order stops by stop
 * price, then order id), and an item's place in it must not change while it is in the queue:
 * `remove` finds the item by it.
 */
export class FiringQueue<T> {
  /** Never an empty chunk; every item of a chunk fires before every item of the next. */
  private readonly chunks: T[][] = [];
  private size = 0;

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get length(): number {
    return this.size;
  }

  /** The next to fire; undefined when empty. */
  first(): T | undefined {
    const chunk = this.chunks[0];
    return chunk === undefined ? undefined : chunk[0];
  }

  /** Put `item`, not in the queue, in its place. */
  add(item: T): void {
    const chunks = this.chunks;
    this.size++;
    if (chunks.length === 0) {
      chunks.push([item]);
      return;
    }
    // The first chunk whose last item fires after it, or else the last chunk (its end).
    const c = Math.min(this.chunkFor(item), chunks.length - 1);
    const chunk = chunks[c]!;
    const at = this.placeIn(chunk, item);
    if (at === chunk.length) chunk.push(item);
    else chunk.splice(at, 0, item);
    if (chunk.length > MAX) chunks.splice(c + 1, 0, chunk.splice(MAX >>> 1));
  }

  /** Take `item` out; false when it is not in the queue. */
  remove(item: T): boolean {
    const chunks = this.chunks;
    if (chunks.length === 0) return false;
    let c = 0;
    let at = 0;
    // The next to fire, as a firing takes it, needs no search.
    if (chunks[0]![0] !== item) {
      c = this.chunkFor(item);
      const found = chunks[c];
      if (found === undefined) return false;
      at = this.placeIn(found, item);
      if (found[at] !== item) return false;
    }
    const chunk = chunks[c]!;
    if (at === 0) chunk.shift();
    else chunk.splice(at, 1);
    this.size--;
    this.mergeAround(c);
    return true;
  }

  /**
   * Check the structure the searches rely on: no empty chunk, every item before the next in
   * firing order, and the count right. O(n), for the engine's full invariant check.
   */
  assertInOrder(what: string): void {
    let count = 0;
    let prev: T | undefined;
    for (const chunk of this.chunks) {
      assert(chunk.length > 0 && chunk.length <= MAX, `${what}: a chunk of ${chunk.length}`);
      for (const item of chunk) {
        assert(prev === undefined || this.before(prev, item), `${what}: out of firing order`);
        prev = item;
        count++;
      }
    }
    assert(count === this.size, `${what}: ${count} items counted as ${this.size}`);
  }

  *[Symbol.iterator](): Iterator<T> {
    for (const chunk of this.chunks) yield* chunk;
  }

  /** The first chunk whose last item does not fire before `item`; chunks.length when none. */
  private chunkFor(item: T): number {
    const chunks = this.chunks;
    const before = this.before;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = chunks[mid]!;
      if (before(chunk[chunk.length - 1]!, item)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first place in `chunk` whose item does not fire before `item`. */
  private placeIn(chunk: T[], item: T): number {
    const before = this.before;
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(chunk[mid]!, item)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * After a removal from chunk `c`: drop it if empty, or, once it holds a quarter of MAX or less,
   * merge it with a neighbour when the two fit in MERGE. No two neighbours then both hold that
   * little, so there are at most about 8 × size / MAX chunks however stops come and go, and
   * cutting one in two (a splice of the chunk list) stays cheap.
   */
  private mergeAround(c: number): void {
    const chunks = this.chunks;
    const chunk = chunks[c]!;
    if (chunk.length === 0) {
      chunks.splice(c, 1);
      return;
    }
    if (chunk.length > MERGE >>> 1) return;
    const prev = chunks[c - 1];
    if (prev !== undefined && prev.length + chunk.length <= MERGE) {
      for (const item of chunk) prev.push(item);
      chunks.splice(c, 1);
      return;
    }
    const next = chunks[c + 1];
    if (next !== undefined && chunk.length + next.length <= MERGE) {
      for (const item of next) chunk.push(item);
      chunks.splice(c + 1, 1);
    }
  }
}
