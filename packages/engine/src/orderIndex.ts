// Open orders by id. Ids are issued in sequence and most orders are short-lived, so the index
// is a ring addressed by id: consecutive orders sit in consecutive slots (cache-friendly, no
// hashing, no probing). An order still open when its slot comes round again (after RING_SIZE
// newer ids) moves to a Map of long-lived orders, which stays small.

const RING_SIZE_DEFAULT = 1 << 16;

export class OrderIndex<T extends { id: number }> {
  private readonly ring: (T | undefined)[];
  private readonly mask: number;
  private readonly old = new Map<number, T>();
  private count = 0;

  /** ringSize must be a power of two; small sizes are for tests. */
  constructor(ringSize = RING_SIZE_DEFAULT) {
    this.ring = new Array(ringSize).fill(undefined);
    this.mask = ringSize - 1;
  }

  get size(): number {
    return this.count;
  }

  get(id: number): T | undefined {
    const value = this.ring[id & this.mask];
    if (value !== undefined && value.id === id) return value;
    return this.old.size === 0 ? undefined : this.old.get(id);
  }

  /** Add an order; ids are positive safe integers, unique among open orders. */
  set(value: T): void {
    const slot = value.id & this.mask;
    const previous = this.ring[slot];
    if (previous !== undefined) {
      if (previous.id < value.id) {
        this.old.set(previous.id, previous);
      } else {
        // An id older than the slot's occupant (only on restore): it goes with the old ones.
        this.old.set(value.id, value);
        this.count++;
        return;
      }
    }
    this.ring[slot] = value;
    this.count++;
  }

  delete(id: number): boolean {
    const slot = id & this.mask;
    const value = this.ring[slot];
    if (value !== undefined && value.id === id) {
      this.ring[slot] = undefined;
      this.count--;
      return true;
    }
    if (this.old.delete(id)) {
      this.count--;
      return true;
    }
    return false;
  }

  /** Every entry, in no particular order. */
  *entries(): IterableIterator<T> {
    for (const value of this.ring) if (value !== undefined) yield value;
    yield* this.old.values();
  }
}
