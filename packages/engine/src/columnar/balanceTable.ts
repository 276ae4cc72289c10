// Every holder's balances: an array per asset, in it holders in blocks of BLOCK_HOLDERS, in a
// block a region per account kind, in a region a cell per holder of two limb values (see
// limbs.ts), available then frozen (the strides are in balanceCell.ts).
//
//   in the asset's array: offset(holder, kind) = block × BLOCK_STRIDE + kind × KIND_STRIDE
//                                                + (holder mod BLOCK_HOLDERS) × CELL_WIDTH
//
// Kind before holder because a market's orders move only the trade balances of its two assets:
// a block's users' cells then sit in one dense region of each (32 bytes a user), however many
// account kinds there are.
//
// Each asset's array grows in place (inPlaceArray.ts), a block at the end when a holder passes
// the room, so no cell moves; a new asset is a new array, so none moves then either. One array
// for every asset, with room for a number of them that doubled when passed, moved every block
// to add one: at a million users, the 9th asset's `asset.add` held the engine for 1.7 s and the
// 17th for 3.4 s, and a 32-bit memory's 4 GiB held about 1.4 million holders at room for 32
// assets (docs/decisions/growing-in-place.md). An array is replaced when it grows: never keep
// one across addHolder.

import {
  BLOCK_HOLDERS,
  BLOCK_MASK,
  BLOCK_SHIFT,
  BLOCK_STRIDE,
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
  /** Per asset, its cells. */
  private readonly stores: InPlaceArray<Float64Array>[] = [];
  /** Per asset, `stores`' array as of now. */
  private readonly cellsByAsset: Float64Array[] = [];
  private readonly flagColumn: InPlaceArray<Uint8Array>;
  /** 1 for a holder whose available balance may go below zero (the outside world). */
  private mayGoNegativeByHolder: Uint8Array;
  private holderCapacity = BLOCK_HOLDERS;
  private holders = 0;

  constructor() {
    this.flagColumn = new InPlaceArray(Uint8Array, this.holderCapacity);
    this.mayGoNegativeByHolder = this.flagColumn.array;
  }

  /** An asset's cells, for reading limbs in place; replaced by growth (see the top). */
  valuesOf(asset: number): Float64Array {
    return this.cellsByAsset[asset]!;
  }

  get holderCount(): number {
    return this.holders;
  }

  get assetCount(): number {
    return this.stores.length;
  }

  /** A new holder with zero balances; returns its index. */
  addHolder(mayGoNegative: boolean): number {
    if (this.holders === this.holderCapacity) this.growHolders();
    const holder = this.holders++;
    this.mayGoNegativeByHolder[holder] = mayGoNegative ? 1 : 0;
    return holder;
  }

  /**
   * A new asset, zero for every holder; returns its index. Its array is made at the size of the
   * others, in a memory once large, of which no page is touched until written.
   */
  addAsset(): number {
    const store = new InPlaceArray(
      Float64Array,
      (this.holderCapacity >> BLOCK_SHIFT) * BLOCK_STRIDE,
    );
    this.stores.push(store);
    this.cellsByAsset.push(store.array);
    return this.stores.length - 1;
  }

  mayGoNegative(holder: number): boolean {
    return this.mayGoNegativeByHolder[holder] === 1;
  }

  /** The offset of a holder's cell of an account kind, in any asset's array. */
  cell(holder: number, kind: AccountKindIndex): number {
    // NOTE: `holder | 0` (exact: a holder index is a small integer, often read from a
    // Float64Array), so that the offset is computed, and the cell indexed, as a 32-bit integer
    // (columnar-engine.md, "Indexes as 32-bit integers").
    const h = holder | 0;
    return (h >> BLOCK_SHIFT) * BLOCK_STRIDE + kind * KIND_STRIDE + (h & BLOCK_MASK) * CELL_WIDTH;
  }

  available(asset: number, cell: number): bigint {
    return limbsToBigInt(this.cellsByAsset[asset]!, cell + CELL_AVAILABLE);
  }

  frozen(asset: number, cell: number): bigint {
    return limbsToBigInt(this.cellsByAsset[asset]!, cell + CELL_FROZEN);
  }

  /** Whether available ≥ amount, a safe integer. */
  hasAvailable(asset: number, cell: number, amount: number): boolean {
    return limbsAtLeast(this.cellsByAsset[asset]!, cell + CELL_AVAILABLE, amount);
  }

  isZero(asset: number, cell: number): boolean {
    const c = this.cellsByAsset[asset]!;
    return c[cell] === 0 && c[cell + 1] === 0 && c[cell + 2] === 0 && c[cell + 3] === 0;
  }

  /**
   * Add safe-integer deltas to available and frozen, both or neither: false, with nothing
   * changed, when a result would leave the limbs' range or go below zero (available may for
   * a holder added with mayGoNegative; frozen never).
   */
  move(asset: number, cell: number, availableDelta: number, frozenDelta: number): boolean {
    const c = this.cellsByAsset[asset]!;
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
  setAvailable(asset: number, cell: number, value: bigint): boolean {
    if (value < 0n && !this.mayGoNegativeAt(cell)) return false;
    return setLimbs(this.cellsByAsset[asset]!, cell + CELL_AVAILABLE, value);
  }

  /** Set frozen (restoring a snapshot); false, unchanged, when below zero or out of range. */
  setFrozen(asset: number, cell: number, value: bigint): boolean {
    if (value < 0n) return false;
    return setLimbs(this.cellsByAsset[asset]!, cell + CELL_FROZEN, value);
  }

  private mayGoNegativeAt(cell: number): boolean {
    // Integer arithmetic only: each division below is exact.
    const inBlock = cell % BLOCK_STRIDE;
    const block = (cell - inBlock) / BLOCK_STRIDE;
    const holder = block * BLOCK_HOLDERS + (inBlock % KIND_STRIDE) / CELL_WIDTH;
    return this.mayGoNegativeByHolder[holder] === 1;
  }

  /** Room for a block more of holders, at the end of every asset's array: no cell moves. */
  private growHolders(): void {
    this.holderCapacity += BLOCK_HOLDERS;
    const length = (this.holderCapacity >> BLOCK_SHIFT) * BLOCK_STRIDE;
    for (let a = 0; a < this.stores.length; a++) {
      this.cellsByAsset[a] = this.stores[a]!.grow(length);
    }
    // The flags double, not a block at a time: while they are small and grown by copies, a
    // copy of them all for every block added was a copy of the whole array every 1,024 holders.
    if (this.mayGoNegativeByHolder.length < this.holderCapacity) {
      this.mayGoNegativeByHolder = this.flagColumn.grow(this.mayGoNegativeByHolder.length * 2);
    }
  }
}
