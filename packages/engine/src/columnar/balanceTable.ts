// Every holder's balances in one Float64Array: per holder a block, in it per asset the three
// account kinds, in each a cell of two limb values (see limbs.ts), available then frozen.
//
//   offset(holder, asset, kind) = holder × holderStride + asset × ASSET_WIDTH + kind × CELL_WIDTH
//
// A holder's block has room for `assetCapacity` assets, so adding a holder only appends a block
// (the array doubles when full), and adding an asset beyond that room re-lays every block out
// with twice the room (rare: assets are listed by an operator).
//
// The array is replaced when it grows: never keep `values` across addHolder or addAsset, and
// never keep a cell offset across addAsset (a re-lay moves it); read both again after an add.
import { addToLimbs, limbsAtLeast, limbsToBigInt, setLimbs } from './limbs.js';

/** The account kinds' indices: 0 main, 1 trade, 2 margin, the order of ACCOUNT_KINDS. */
export type AccountKindIndex = 0 | 1 | 2;
export const KIND_COUNT = 3;
/** Offsets in a cell: each of available and frozen is two limbs (hi, lo). */
export const CELL_AVAILABLE = 0;
export const CELL_FROZEN = 2;
export const CELL_WIDTH = 4;
const ASSET_WIDTH = KIND_COUNT * CELL_WIDTH;

export class BalanceTable {
  private cells: Float64Array;
  /** 1 for a holder whose available balance may go below zero (the outside world). */
  private mayGoNegativeByHolder: Uint8Array;
  private holderCapacity: number;
  private assetCapacity: number;
  private holderStride: number;
  private holders = 0;
  private assets = 0;

  /** Initial room; both grow as needed (small values are for tests). */
  constructor(holderCapacity = 16, assetCapacity = 8) {
    this.holderCapacity = Math.max(1, holderCapacity);
    this.assetCapacity = Math.max(1, assetCapacity);
    this.holderStride = this.assetCapacity * ASSET_WIDTH;
    this.cells = new Float64Array(this.holderCapacity * this.holderStride);
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

  /** A new holder with zero balances; returns its index. */
  addHolder(mayGoNegative: boolean): number {
    if (this.holders === this.holderCapacity) this.growHolders();
    const holder = this.holders++;
    this.mayGoNegativeByHolder[holder] = mayGoNegative ? 1 : 0;
    return holder;
  }

  /** A new asset, zero for every holder; returns its index. Moves cells when it re-lays. */
  addAsset(): number {
    if (this.assets === this.assetCapacity) this.relayAssets();
    return this.assets++;
  }

  mayGoNegative(holder: number): boolean {
    return this.mayGoNegativeByHolder[holder] === 1;
  }

  /** The offset of a cell in `values`; valid until the next addAsset. */
  cell(holder: number, asset: number, kind: AccountKindIndex): number {
    return holder * this.holderStride + asset * ASSET_WIDTH + kind * CELL_WIDTH;
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
    // Exact: cell and the stride are integers far below 2^53 (as in fastmath's floorDivN).
    const holder = (cell - (cell % this.holderStride)) / this.holderStride;
    return this.mayGoNegativeByHolder[holder] === 1;
  }

  /** Twice the room for holders; blocks keep their offsets. */
  private growHolders(): void {
    this.holderCapacity *= 2;
    const cells = new Float64Array(this.holderCapacity * this.holderStride);
    cells.set(this.cells);
    this.cells = cells;
    const flags = new Uint8Array(this.holderCapacity);
    flags.set(this.mayGoNegativeByHolder);
    this.mayGoNegativeByHolder = flags;
  }

  /** Twice the room for assets in every block: each holder's block moves to its new stride. */
  private relayAssets(): void {
    const oldStride = this.holderStride;
    this.assetCapacity *= 2;
    this.holderStride = this.assetCapacity * ASSET_WIDTH;
    const cells = new Float64Array(this.holderCapacity * this.holderStride);
    const used = this.assets * ASSET_WIDTH;
    for (let h = 0; h < this.holders; h++) {
      const from = h * oldStride;
      cells.set(this.cells.subarray(from, from + used), h * this.holderStride);
    }
    this.cells = cells;
  }
}
