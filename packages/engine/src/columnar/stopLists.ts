// One market's waiting stops in the columnar core: the two lists in firing order (lifecycle.ts
// addStop), which stop the command's trades fire next (match.ts), and the bounds over them that
// the core checks before a command that may fire them (OrderBounds.triggersFit).
import { assert, InvariantViolation } from '../errors.js';
import { FiringQueue } from '../firingQueue.js';
import {
  NONE,
  O_AMOUNT,
  O_DIRECTION,
  O_ID,
  O_SIDE,
  O_STOP_TICKS,
  O_TICKS,
  O_TRIGGERED,
  ORDER_WIDTH,
} from './orderRow.js';
import type { OrderTable } from './orderTable.js';

export class StopLists {
  /**
   * Waiting stops (slots) by trigger direction, in the order they fire: rising ones lowest
   * stop first, falling ones highest stop first, then oldest.
   */
  readonly up = new FiringQueue<number>((a, b) => this.firesBefore(a, b, true));
  readonly down = new FiringQueue<number>((a, b) => this.firesBefore(a, b, false));
  // The sum of the waiting stops' amounts in amount units (lots; exact), and at least the
  // largest amount of a sell stop in minor units (raised as stops are parked, cleared when none
  // waits, made exact by tightenSellAmountMax when the bound it gives fails).
  amountUnits = 0;
  sellAmountMax = 0;
  /**
   * The sum over the waiting buy stops of amount × limit ticks, in lots (ColumnarMarket
   * lotsTicks): exact in buyProductsExact, and as the nearest number in buyProducts, which is
   * what the bound reads (productsFit allows for its rounding).
   */
  buyProducts = 0;
  private buyProductsExact = 0n;

  /** `amountUnit`: the market's (ColumnarMarket.amountUnit), to count products in lots. */
  constructor(
    private readonly table: OrderTable,
    private readonly amountUnit: number,
  ) {}

  get count(): number {
    return this.up.length + this.down.length;
  }

  /** Whether an open order is a stop still waiting for its trigger. */
  isWaiting(slot: number): boolean {
    const ord = this.table.rows;
    const row = slot * ORDER_WIDTH;
    return ord[row + O_DIRECTION] !== 0 && ord[row + O_TRIGGERED] === 0;
  }

  /** Insert a waiting stop (its direction and stop price set) in firing order. */
  add(slot: number): void {
    const ord = this.table.rows;
    const row = slot * ORDER_WIDTH;
    const list = ord[row + O_DIRECTION]! > 0 ? this.up : this.down;
    list.add(slot);
    const amount = ord[row + O_AMOUNT]!;
    this.amountUnits += amount / this.amountUnit;
    if (ord[row + O_SIDE] === 1) {
      if (amount > this.sellAmountMax) this.sellAmountMax = amount;
    } else {
      this.addBuyProducts(this.buyProductOf(row));
    }
  }

  /**
   * Whether waiting stop `a` fires before `b` (slots): rising ones lowest stop first, falling
   * ones highest stop first, then oldest. Neither changes while the stop waits.
   */
  private firesBefore(a: number, b: number, up: boolean): boolean {
    const ord = this.table.rows;
    const rowA = a * ORDER_WIDTH;
    const rowB = b * ORDER_WIDTH;
    const stopA = ord[rowA + O_STOP_TICKS]!;
    const stopB = ord[rowB + O_STOP_TICKS]!;
    if (stopA !== stopB) return up ? stopA < stopB : stopA > stopB;
    return ord[rowA + O_ID]! < ord[rowB + O_ID]!;
  }

  /** A buy stop's amount × limit ticks, in lots. Rare: in bigint. */
  private buyProductOf(row: number): bigint {
    const ord = this.table.rows;
    return BigInt(ord[row + O_AMOUNT]! / this.amountUnit) * BigInt(ord[row + O_TICKS]!);
  }

  private addBuyProducts(product: bigint): void {
    this.buyProductsExact += product;
    this.buyProducts = Number(this.buyProductsExact);
  }

  remove(slot: number): void {
    const ord = this.table.rows;
    const row = slot * ORDER_WIDTH;
    const list = ord[row + O_DIRECTION]! > 0 ? this.up : this.down;
    if (!list.remove(slot)) throw new InvariantViolation(`stop order ${ord[row + O_ID]} missing`);
    this.amountUnits -= ord[row + O_AMOUNT]! / this.amountUnit;
    if (ord[row + O_SIDE] === 2) this.addBuyProducts(-this.buyProductOf(row));
    if (this.count === 0) {
      this.amountUnits = 0;
      this.sellAmountMax = 0;
    }
  }

  /**
   * Make sellAmountMax the largest amount of a waiting sell stop (0 for none) and return it: the
   * largest may have gone while smaller ones wait. O(stops); called only when the bound from the
   * kept value fails, before a hand-over that costs far more.
   */
  tightenSellAmountMax(): number {
    const ord = this.table.rows;
    let most = 0;
    for (const list of [this.up, this.down]) {
      for (const slot of list) {
        const row = slot * ORDER_WIDTH;
        if (ord[row + O_SIDE] === 1 && ord[row + O_AMOUNT]! > most) most = ord[row + O_AMOUNT]!;
      }
    }
    this.sellAmountMax = most;
    return most;
  }

  /**
   * The lists in firing order, each stop waiting and in the list of its direction, and the sums
   * over them exact: what the bound before a command that may fire them reads. O(stops).
   */
  assertValid(market: string): void {
    const ord = this.table.rows;
    let amounts = 0;
    let buyProducts = 0n;
    for (const [list, up] of [
      [this.up, true],
      [this.down, false],
    ] as const) {
      list.assertInOrder(`${market} stops`);
      for (const slot of list) {
        const row = slot * ORDER_WIDTH;
        assert(
          this.isWaiting(slot) && ord[row + O_DIRECTION]! > 0 === up,
          `order ${ord[row + O_ID]} in the wrong stop list`,
        );
        amounts += ord[row + O_AMOUNT]! / this.amountUnit;
        if (ord[row + O_SIDE] === 1) {
          assert(ord[row + O_AMOUNT]! <= this.sellAmountMax, `${market}: sell stop over the bound`);
        } else {
          buyProducts += this.buyProductOf(row);
        }
      }
    }
    assert(
      amounts === this.amountUnits,
      `${market}: stops' amounts ${amounts} kept as ${this.amountUnits}`,
    );
    assert(buyProducts === this.buyProductsExact, `${market}: buy stops' products wrong`);
  }

  /**
   * The next waiting stop that trades between `runLo` and `runHi` ticks (-1 before the
   * command's first trade) have crossed, NONE when none.
   */
  nextCrossed(runLo: number, runHi: number): number {
    const ord = this.table.rows;
    const up = this.up.first();
    if (up !== undefined && runHi >= ord[up * ORDER_WIDTH + O_STOP_TICKS]!) return up;
    const down = this.down.first();
    if (down !== undefined && runLo >= 0 && runLo <= ord[down * ORDER_WIDTH + O_STOP_TICKS]!) {
      return down;
    }
    return NONE;
  }
}
