// Open orders by id: an open-addressing hash table (linear probing, backward-shift deletion).
// A Map of ever-new integer keys with constant insert/delete churn spends its time rehashing
// and collecting; this table has no tombstones and allocates only when it grows.

const EMPTY = 0;
const CAPACITY_MIN = 1024;

export class OrderIndex<T extends { id: number }> {
  private keys = new Float64Array(CAPACITY_MIN);
  private values: (T | undefined)[] = new Array(CAPACITY_MIN).fill(undefined);
  private mask = CAPACITY_MIN - 1;
  private count = 0;

  get size(): number {
    return this.count;
  }

  private slot(id: number): number {
    // Fold the high bits in, then multiply by the golden ratio: ids are sequential.
    const h = Math.imul((id | 0) ^ ((id / 4294967296) | 0), 0x9e3779b1);
    return (h ^ (h >>> 15)) & this.mask;
  }

  get(id: number): T | undefined {
    const keys = this.keys;
    for (let i = this.slot(id); ; i = (i + 1) & this.mask) {
      const key = keys[i]!;
      if (key === id) return this.values[i];
      if (key === EMPTY) return undefined;
    }
  }

  /** Add an order; ids are positive and unique among open orders. */
  set(value: T): void {
    if ((this.count + 1) * 2 > this.keys.length) this.grow();
    const keys = this.keys;
    let i = this.slot(value.id);
    while (keys[i] !== EMPTY) i = (i + 1) & this.mask;
    keys[i] = value.id;
    this.values[i] = value;
    this.count++;
  }

  delete(id: number): boolean {
    const keys = this.keys;
    const mask = this.mask;
    let i = this.slot(id);
    for (;;) {
      const key = keys[i]!;
      if (key === EMPTY) return false;
      if (key === id) break;
      i = (i + 1) & mask;
    }
    // Shift later entries of the same probe run back, so no tombstone is needed.
    for (let j = (i + 1) & mask; keys[j] !== EMPTY; j = (j + 1) & mask) {
      const home = this.slot(keys[j]!);
      const between = i <= j ? i < home && home <= j : i < home || home <= j;
      if (between) continue;
      keys[i] = keys[j]!;
      this.values[i] = this.values[j];
      i = j;
    }
    keys[i] = EMPTY;
    this.values[i] = undefined;
    this.count--;
    return true;
  }

  private grow(): void {
    const oldValues = this.values;
    const capacity = this.keys.length * 2;
    this.keys = new Float64Array(capacity);
    this.values = new Array(capacity).fill(undefined);
    this.mask = capacity - 1;
    this.count = 0;
    for (const value of oldValues) if (value !== undefined) this.set(value);
  }

  /** Every entry, in no particular order. */
  *entries(): IterableIterator<T> {
    for (const value of this.values) if (value !== undefined) yield value;
  }
}
