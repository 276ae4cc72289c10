// The users by id, as a Map of them would hold them, but in SHARDS Maps by the id's low bits.
// V8 grows a Map by making its table again, every entry placed anew inside one set(): with all
// the users in one, the sign-up that made the 524,289th user took 47 to 57 ms (`npm run
// bench:engine -- --users 1000000`, docs/decisions/growing-in-place.md). Each shard holds a
// 256th of them, so it grows at a 256th of the size. Ids come from a database's sequence, so
// their low bits spread them evenly.

const SHARDS = 256;
const SHARD_MASK = SHARDS - 1;

export class UserIndex<T> {
  // Made at once: an array of Maps only, read without a check for a missing one.
  private readonly shards: Map<number, T>[] = Array.from({ length: SHARDS }, () => new Map());
  private count = 0;

  /** How many users it holds. */
  get size(): number {
    return this.count;
  }

  get(id: number): T | undefined {
    return this.shards[id & SHARD_MASK]!.get(id);
  }

  has(id: number): boolean {
    return this.shards[id & SHARD_MASK]!.has(id);
  }

  set(id: number, value: T): void {
    const shard = this.shards[id & SHARD_MASK]!;
    const before = shard.size;
    shard.set(id, value);
    this.count += shard.size - before;
  }

  delete(id: number): void {
    if (this.shards[id & SHARD_MASK]!.delete(id)) this.count--;
  }

  clear(): void {
    for (const shard of this.shards) shard.clear();
    this.count = 0;
  }

  /** Every user, shard by shard: sort where the order matters. */
  *values(): IterableIterator<T> {
    for (const shard of this.shards) yield* shard.values();
  }

  /** Every id, in the order of `values`. */
  *keys(): IterableIterator<number> {
    for (const shard of this.shards) yield* shard.keys();
  }
}
