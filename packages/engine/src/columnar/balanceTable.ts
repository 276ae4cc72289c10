// Every holder's balances in one Float64Array: a region per asset and account kind, in it a cell
// per holder of two limb values (see limbs.ts), available then frozen.
//
//   offset(holder, asset, kind) = asset × assetStride + kind × kindStride + holder × CELL_WIDTH
//
// Asset and kind first because a market's orders move only the trade balances of its two assets:
// all its users' cells then sit in two dense regions (32 bytes a user each), however many assets
// and account kinds the exchange lists, where blocks per holder spread them over every asset's
// and kind's room.
//
// Regions have room for `holderCapacity` holders and the array for `assetCapacity` assets.
// Adding an asset past that room doubles it at the end (cells keep their offsets); adding a
// holder past it re-lays every region out with twice the room (amortised: it doubles), which
// moves every cell. The array is replaced when either grows: never keep `values` across
// addHolder or addAsset, and never keep a cell offset across addHolder.

import { CELL_AVAILABLE, CELL_FROZEN, CELL_WIDTH, KIND_COUNT } from './balanceCell.js';
import { addToLimbs, limbsAtLeast, limbsToBigInt, setLimbs } from './limbs.js';

/** The account kinds' indices: 0 main, 1 trade, 2 margin, the order of ACCOUNT_KINDS. */
export type AccountKindIndex = 0 | 1 | 2;

export class BalanceTable {
  private cells: Float64Array;
  /** 1 for a holder whose available balance may go below zero (the outside world). */
  private mayGoNegativeByHolder: Uint8Array;
  private holderCapacity: number;
  private assetCapacity: number;
  /** Numbers per region (one asset's one kind), and per asset (its kinds' regions). */
  private kindStride: number;
  private assetStride: number;
  private holders = 0;
  private assets = 0;

  /** Initial room; both grow as needed (small values are for tests). */
  constructor(holderCapacity = 16, assetCapacity = 8) {
    this.holderCapacity = Math.max(1, holderCapacity);
    this.assetCapacity = Math.max(1, assetCapacity);
    this.kindStride = this.holderCapacity * CELL_WIDTH;
    this.assetStride = KIND_COUNT * this.kindStride;
    this.cells = new Float64Array(this.assetCapacity * this.assetStride);
    this.mayGoNegativeByHolder = new Uint8Array(this.holderCapacity);
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

  /** A new asset, zero for every holder; returns its index. Cells keep their offsets. */
  addAsset(): number {
    if (this.assets === this.assetCapacity) {
      this.assetCapacity *= 2;
      const cells = new Float64Array(this.assetCapacity * this.assetStride);
      cells.set(this.cells);
      this.cells = cells;
    }
    return this.assets++;
  }

  mayGoNegative(holder: number): boolean {
    return this.mayGoNegativeByHolder[holder] === 1;
  }

  /** The offset of a cell in `values`; valid until the next addHolder. */
  cell(holder: number, asset: number, kind: AccountKindIndex): number {
    // NOTE: `holder | 0` (exact: a holder index is a small integer, often read from a
    // Float64Array), so that the offset is computed, and the cell indexed, as a 32-bit integer
    // (columnar-engine.md, "Indexes as 32-bit integers"). Not `| 0` of the sum: a table past 2^31
    // numbers would wrap; the compiler's integer additions are checked, and redone as doubles
    // past that.
    return asset * this.assetStride + kind * this.kindStride + (holder | 0) * CELL_WIDTH;
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
    // Exact: every stride and offset is a multiple of CELL_WIDTH, far below 2^53.
    const holder = (cell % this.kindStride) / CELL_WIDTH;
    return this.mayGoNegativeByHolder[holder] === 1;
  }

  /** Twice the room for holders: every region moves to its new offset. */
  private growHolders(): void {
    const old = this.cells;
    const oldKindStride = this.kindStride;
    this.holderCapacity *= 2;
    this.kindStride = this.holderCapacity * CELL_WIDTH;
    this.assetStride = KIND_COUNT * this.kindStride;
    const cells = new Float64Array(this.assetCapacity * this.assetStride);
    const used = this.holders * CELL_WIDTH;
    for (let region = 0; region < this.assets * KIND_COUNT; region++) {
      const from = region * oldKindStride;
      cells.set(old.subarray(from, from + used), region * this.kindStride);
    }
    this.cells = cells;
    const flags = new Uint8Array(this.holderCapacity);
    flags.set(this.mayGoNegativeByHolder);
    this.mayGoNegativeByHolder = flags;
  }
}
