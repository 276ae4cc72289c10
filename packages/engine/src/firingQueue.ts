// A market's waiting stops of one direction, in the order they fire, for both cores. The next to
// fire leaves from the front in constant time, and a stop cancelled elsewhere in the queue is
// only marked, the marked ones dropped before the queue is next read in order or added to (a
// few one by one, many in one pass). As a plain array, each firing or cancel moved every stop behind it: a command firing
// or cancelling n stops (stop-losses gathered at one round price, say, or one trader's cancel
// of all) took time in n², seconds for 50,000 to 150,000 stops in one command.

/** Up to this many items taken out are spliced out one by one; more, in one pass (flush). */
const FEW = 8;

/**
 * Items in firing order; each item at most once. An item taken out may be put in again (the
 * columnar core reuses an order's slot number).
 */
export class FiringQueue<T> {
  private items: T[] = [];
  /** Where the queue starts in `items`; the items before it have left. */
  private start = 0;
  /** Items in the queue. */
  private readonly present = new Set<T>();
  /** Items taken out from behind the front, still in `items` until the next flush. */
  private readonly gone = new Set<T>();

  get length(): number {
    return this.present.size;
  }

  /** The item `i` places from the front (0: the next to fire); undefined past the end. */
  at(i: number): T | undefined {
    this.flush();
    return i >= 0 && i < this.length ? this.items[this.start + i] : undefined;
  }

  /** The next to fire; undefined when empty. */
  first(): T | undefined {
    const items = this.items;
    while (this.gone.size > 0 && this.start < items.length && this.gone.has(items[this.start]!)) {
      this.gone.delete(items[this.start++]!);
    }
    this.compact();
    return this.start < items.length ? items[this.start] : undefined;
  }

  /** Put `item`, not in the queue, at place `i` (0 to length), before the one there. */
  insert(i: number, item: T): void {
    this.flush();
    if (i === this.length) this.items.push(item);
    else this.items.splice(this.start + i, 0, item);
    this.present.add(item);
  }

  /** Take `item` out; false when it is not in the queue. */
  remove(item: T): boolean {
    if (!this.present.delete(item)) return false;
    const items = this.items;
    if (items[this.start] === item) {
      this.start++;
      this.compact();
    } else {
      this.gone.add(item);
    }
    return true;
  }

  *[Symbol.iterator](): Iterator<T> {
    this.flush();
    for (let i = this.start; i < this.items.length; i++) yield this.items[i]!;
  }

  /**
   * Drop the items taken out from behind the front. A few: each found and spliced out, which the
   * runtime does in native loops (a cancel, then a new stop, is a common pair). More: one pass
   * over the queue, in place, so that a cancel of many costs one pass, not one each.
   */
  private flush(): void {
    const gone = this.gone;
    if (gone.size === 0) return;
    const items = this.items;
    if (gone.size <= FEW) {
      for (const item of gone) items.splice(items.indexOf(item, this.start), 1);
    } else {
      let kept = 0;
      for (let i = this.start; i < items.length; i++) {
        const item = items[i]!;
        if (!gone.has(item)) items[kept++] = item;
      }
      items.length = kept;
      this.start = 0;
    }
    gone.clear();
  }

  /**
   * Drop the items that have left the front once they are at least half the array (and more
   * than a few): each item is moved at most once per halving, so a firing costs a constant on
   * average, and what has left is never more than what remains, or a thousand.
   */
  private compact(): void {
    const items = this.items;
    if (this.start === items.length) {
      items.length = 0;
      this.start = 0;
    } else if (this.start >= 1024 && this.start * 2 >= items.length) {
      items.splice(0, this.start);
      this.start = 0;
    }
  }
}
