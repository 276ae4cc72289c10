// A typed array that, once large, grows without copying its cells or waking the collector
// (docs/decisions/growing-in-place.md). Small, it is an ordinary array, copied into a new one
// twice its size when it grows. From IN_PLACE_FROM bytes its cells live in a shared
// WebAssembly.Memory instead: the memory reserves its whole address space when made and commits
// more of it on growth, in place. And V8 counts no shared memory as the isolate's external
// memory, whose growth starts a full collection. Grown by copies, the order table held the
// order that grew it past 131,072 open orders for 72 to 139 ms, copy and collection.
// No WebAssembly module is involved: only the memory, as a buffer for the typed array.

/** The part of WebAssembly's API used here (the engine's build has no DOM or Node types). */
interface GrowableMemory {
  readonly buffer: ArrayBufferLike;
  grow(pages: number): number;
}
type MemoryConstructor = new (descriptor: {
  initial: number;
  maximum: number;
  shared: boolean;
}) => GrowableMemory;

const PAGE_BYTES = 65_536;
/** A 32-bit memory's limit, 4 GiB: 16,777,216 order rows; past it, the array is copied. */
const MAX_PAGES = 65_536;
/**
 * The size from which an array moves into a memory. Each memory reserves gigabytes of address
 * space, so a process can keep some thousands of them: every engine's small arrays stay out.
 */
export const IN_PLACE_FROM = 1 << 20;

/** WebAssembly.Memory, or undefined where the runtime has none (node --jitless). */
const Memory = (globalThis as { WebAssembly?: { Memory: MemoryConstructor } }).WebAssembly?.Memory;

type View = Float64Array | Int32Array | Uint8Array;
type ViewConstructor<T extends View> = {
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T;
  new (length: number): T;
  readonly BYTES_PER_ELEMENT: number;
};

export class InPlaceArray<T extends View> {
  private memory: GrowableMemory | undefined;
  private view: T;

  /**
   * `inPlaceFrom`: the bytes from which the cells move into a memory (tests make it small). An
   * array that large from the start is made in one, whose pages are not touched until written
   * (a new asset's balances at a million users: 96 MB, of which a few pages are written).
   */
  constructor(
    private readonly View: ViewConstructor<T>,
    length: number,
    private readonly inPlaceFrom = IN_PLACE_FROM,
  ) {
    const pages = this.pagesFor(length);
    if (length * View.BYTES_PER_ELEMENT >= inPlaceFrom && pages <= MAX_PAGES) {
      this.memory = newMemory(pages);
    }
    this.view =
      this.memory === undefined ? new View(length) : new View(this.memory.buffer, 0, length);
  }

  /** The cells. NOTE: replaced by `grow`: re-read it after every growth instead of keeping it. */
  get array(): T {
    return this.view;
  }

  /** Whether the cells are in a memory, grown in place (tests). */
  get inPlace(): boolean {
    return this.memory !== undefined;
  }

  /** Room for `length` cells (no fewer than now): the cells keep their values, new ones are 0. */
  grow(length: number): T {
    const pages = this.pagesFor(length);
    // Past a memory's 4 GiB, an ordinary array again, as large as the runtime allows.
    if (pages > MAX_PAGES) this.memory = undefined;
    else if (
      this.memory === undefined &&
      length * this.View.BYTES_PER_ELEMENT >= this.inPlaceFrom
    ) {
      this.memory = newMemory(pages);
      if (this.memory !== undefined) {
        // The one copy of the cells: into the memory.
        const next = new this.View(this.memory.buffer, 0, length);
        next.set(this.view);
        this.view = next;
        return next;
      }
    }
    const memory = this.memory;
    if (memory === undefined) {
      const next = new this.View(length);
      next.set(this.view);
      this.view = next;
      return next;
    }
    const more = pages - memory.buffer.byteLength / PAGE_BYTES;
    if (more > 0) memory.grow(more);
    this.view = new this.View(memory.buffer, 0, length);
    return this.view;
  }

  private pagesFor(length: number): number {
    return Math.max(1, Math.ceil((length * this.View.BYTES_PER_ELEMENT) / PAGE_BYTES));
  }
}

/**
 * A shared memory of `pages`, or undefined where one cannot be made (no WebAssembly, no shared
 * memory, or the address space taken): the array then goes on growing by copies.
 */
function newMemory(pages: number): GrowableMemory | undefined {
  if (Memory === undefined) return undefined;
  try {
    return new Memory({ initial: pages, maximum: MAX_PAGES, shared: true });
  } catch {
    return undefined;
  }
}
