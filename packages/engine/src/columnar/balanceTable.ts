// Every holder's balances in one Float64Array: holders in blocks of BLOCK_HOLDERS, in a block a
// region per asset and account kind, in a region a cell per holder of two limb values (see
// limbs.ts), available then frozen (the strides are in balanceCell.ts).
//
//   offset(holder, asset, kind) = block × blockStride + asset × ASSET_STRIDE + kind × KIND_STRIDE
//                                 + (holder mod BLOCK_HOLDERS) × CELL_WIDTH
//
// Asset and kind before holder because a market's orders move only the trade balances of its two
// assets: a block's users' cells then sit in two dense regions (32 bytes a user each), however
// many assets and account kinds the exchange lists, where blocks per holder spread them over
// every asset's and kind's room.
//
// A block has room for `assetCapacity` assets. A holder past the room adds a block at the end
// and no cell moves: the array grows in place (inPlaceArray.ts), where re-laying every region
// with twice the room had held the user added at about 524,000 for 63 to 67 ms
// (docs/decisions/growing-in-place.md). Adding an asset past the room doubles every block's,
// which moves the blocks. The array is replaced when it grows: never keep `values` across
// addHolder or addAsset, nor a cell offset across addAsset.

import {
  ASSET_STRIDE,
  BLOCK_HOLDERS,
  BLOCK_MASK,
  BLOCK_SHIFT,
  CELL_AVAILABLE,
  CELL_FROZEN,
  CELL_WIDTH,
  KIND_STRIDE,
} from './balanceCell.js';
import { InPlaceArray } from './inPlaceArray.js';
import { addToLimbs, limbsAtLeast, limbsToBigInt, setLimbs } from './limbs.js';

/** The account kinds' indices: 0 main, 1 trade, 2 margin, the order of ACCOUNT_KINDS. */
export type AccountKindIndex = 0 | 1 | 2;

export class BalanceTable {
  private readonly store: InPlaceArray<Float64Array>;
  /** `store`'s array as of now. */
  private cells: Float64Array;
  private readonly flagColumn: InPlaceArray<Uint8Array>;
  /** 1 for a holder whose available balance may go below zero (the outside world). */
  private mayGoNegativeByHolder: Uint8Array;
  private holderCapacity: number;
  private assetCapacity: number;
  /** Numbers per block: ASSET_STRIDE for each asset it has room for. */
  private blockStride: number;
  private holders = 0;
  private assets = 0;

  /**
   * Room for assets, grown as needed (small values are for tests); the room for holders is a
   * block's, then a block more at a time.
   */
  constructor(assetCapacity = 8) {
    this.holderCapacity = BLOCK_HOLDERS;
    this.assetCapacity = Math.max(1, assetCapacity);
    this.blockStride = this.assetCapacity * ASSET_STRIDE;
    this.store = new InPlaceArray(Float64Array, this.blockStride);
    this.cells = this.store.array;
    this.flagColumn = new InPlaceArray(Uint8Array, this.holderCapacity);
    this.mayGoNegativeByHolder = this.flagColumn.array;
  }

  /** The array itself, for reading limbs in place; replaced by growth (see the top). */
  get values(): Float64Array {
    return this.cells;
  }

  get holderCount(): number {
    return this.holders;
  }

  get assetCount(): number {
    return this.assets;
  }

  /** A new holder with zero balances; returns its index. Moves every cell when it re-lays. */
  addHolder(mayGoNegative: boolean): number {
    if (this.holders === this.holderCapacity) this.growHolders();
    const holder = this.holders++;
    this.mayGoNegativeByHolder[holder] = mayGoNegative ? 1 : 0;
    return holder;
  }

  /** A new asset, zero for every holder; returns its index. Moves the blocks past the first. */
  addAsset(): number {
    if (this.assets === this.assetCapacity) {
      const oldBlockStride = this.blockStride;
      this.assetCapacity *= 2;
      this.blockStride = this.assetCapacity * ASSET_STRIDE;
      const blocks = this.holderCapacity >> BLOCK_SHIFT;
      this.cells = this.store.grow(blocks * this.blockStride);
      moveBlocks(this.cells, blocks, oldBlockStride, this.blockStride);
    }
    return this.assets++;
  }

  mayGoNegative(holder: number): boolean {
    return this.mayGoNegativeByHolder[holder] === 1;
  }

  /** The offset of a cell in `values`; valid until the next addAsset. */
  cell(holder: number, asset: number, kind: AccountKindIndex): number {
    // NOTE: `holder | 0` (exact: a holder index is a small integer, often read from a
    // Float64Array), so that the offset is computed, and the cell indexed, as a 32-bit integer
    // (columnar-engine.md, "Indexes as 32-bit integers"). Not `| 0` of the sum: a table past 2^31
    // numbers would wrap; the compiler's integer additions are checked, and redone as doubles
    // past that.
    const h = holder | 0;
    return (
      (h >> BLOCK_SHIFT) * this.blockStride +
      asset * ASSET_STRIDE +
      kind * KIND_STRIDE +
      (h & BLOCK_MASK) * CELL_WIDTH
    );
  }

  available(cell: number): bigint {
    return limbsToBigInt(this.cells, cell + CELL_AVAILABLE);
  }

  frozen(cell: number): bigint {
    return limbsToBigInt(this.cells, cell + CELL_FROZEN);
  }

  /** Whether available ≥ amount, a safe integer. */
  hasAvailable(cell: number, amount: number): boolean {
    return limbsAtLeast(this.cells, cell + CELL_AVAILABLE, amount);
  }

  isZero(cell: number): boolean {
    const c = this.cells;
    return c[cell] === 0 && c[cell + 1] === 0 && c[cell + 2] === 0 && c[cell + 3] === 0;
  }

  /**
   * Add safe-integer deltas to available and frozen, both or neither: false, with nothing
   * changed, when a result would leave the limbs' range or go below zero (available may for
   * a holder added with mayGoNegative; frozen never).
   */
  move(cell: number, availableDelta: number, frozenDelta: number): boolean {
    const c = this.cells;
    const availableAt = cell + CELL_AVAILABLE;
    const frozenAt = cell + CELL_FROZEN;
    if (availableDelta !== 0 && !addToLimbs(c, availableAt, availableDelta)) return false;
    if (frozenDelta !== 0 && !addToLimbs(c, frozenAt, frozenDelta)) {
      if (availableDelta !== 0) addToLimbs(c, availableAt, -availableDelta);
      return false;
    }
    // Checked after the additions, which are exact: subtracting the same deltas restores the
    // same value, which fits because it did before, and in the same bits (forms are unique).
    // A high limb below zero is a value below zero.
    if (c[frozenAt]! < 0 || (c[availableAt]! < 0 && !this.mayGoNegativeAt(cell))) {
      if (availableDelta !== 0) addToLimbs(c, availableAt, -availableDelta);
      if (frozenDelta !== 0) addToLimbs(c, frozenAt, -frozenDelta);
      return false;
    }
    return true;
  }

  /** Set available (restoring a snapshot); false, unchanged, when it may not hold the value. */
  setAvailable(cell: number, value: bigint): boolean {
    if (value < 0n && !this.mayGoNegativeAt(cell)) return false;
    return setLimbs(this.cells, cell + CELL_AVAILABLE, value);
  }

  /** Set frozen (restoring a snapshot); false, unchanged, when below zero or out of range. */
  setFrozen(cell: number, value: bigint): boolean {
    if (value < 0n) return false;
    return setLimbs(this.cells, cell + CELL_FROZEN, value);
  }

  private mayGoNegativeAt(cell: number): boolean {
    // Integer arithmetic only: each division below is exact.
    const inBlock = cell % this.blockStride;
    const block = (cell - inBlock) / this.blockStride;
    const holder = block * BLOCK_HOLDERS + (inBlock % KIND_STRIDE) / CELL_WIDTH;
    return this.mayGoNegativeByHolder[holder] === 1;
  }

  /** Room for a block more of holders, at the end: no cell moves. */
  private growHolders(): void {
    this.holderCapacity += BLOCK_HOLDERS;
    this.cells = this.store.grow((this.holderCapacity >> BLOCK_SHIFT) * this.blockStride);
    // The flags double, not a block at a time: while they are small and grown by copies, a
    // copy of them all for every block added was a copy of the whole array every 1,024 holders.
    if (this.mayGoNegativeByHolder.length < this.holderCapacity) {
      this.mayGoNegativeByHolder = this.flagColumn.grow(this.mayGoNegativeByHolder.length * 2);
    }
  }
}

/**
 * Move `count` blocks laid `oldStride` apart to `newStride` apart (a larger one), in place, each
 * block's new room past its old cells zero. The last moves first, so none is written over
 * before it has moved; native copies, as this runs too rarely to be compiled.
 */
function moveBlocks(a: Float64Array, count: number, oldStride: number, newStride: number): void {
  const oldEnd = count * oldStride;
  for (let i = count - 1; i >= 0; i--) {
    const to = i * newStride;
    if (i > 0) a.copyWithin(to, i * oldStride, (i + 1) * oldStride);
    // Past the old blocks the array is zero already.
    const roomEnd = Math.min(to + newStride, oldEnd);
    if (to + oldStride < roomEnd) a.fill(0, to + oldStride, roomEnd);
  }
}
