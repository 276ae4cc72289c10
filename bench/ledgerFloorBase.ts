// What both ledger floors share: the set-up, reading and checking a command's fields (the JS
// floor in ledgerFloor.ts and the WebAssembly one in wasmLedgerFloor.ts read commands the same
// way, so that they differ only in where the work runs), and reading back the book and the
// balances for the bench's check against the engine.
import { exactQuotientN, positiveSafeOf } from '../packages/engine/src/fastmath.js';

/** Price levels a floor's book can hold, centred on the mid it starts from. */
export const FLOOR_SPAN = 1 << 16;

export interface LedgerFloorSetup {
  market: string;
  users: number;
  /** Money minor units per tick, and stock minor units per whole coin. */
  tickSize: number;
  stockScale: number;
  minAmount: number;
  makerFeePpm: number;
  takerFeePpm: number;
  /** Each user's trade balance of each asset at the start. */
  balance: bigint;
  /** The tick the book's window is centred on. */
  midTicks: number;
  nextOrderId: number;
}

export abstract class LedgerFloorBase {
  protected readonly market: string;
  protected readonly users: number;
  protected readonly minAmount: number;
  protected readonly tickSize: number;
  /** The ticks of the window's lowest level: level = ticks − base. */
  protected readonly base: number;
  protected readonly roundingHolder: number;

  constructor(setup: LedgerFloorSetup) {
    this.market = setup.market;
    this.users = setup.users;
    this.minAmount = setup.minAmount;
    this.tickSize = setup.tickSize;
    this.base = setup.midTicks - FLOOR_SPAN / 2;
    this.roundingHolder = setup.users + 1;
  }

  /** A holder's trade balance of the stock (0) or the money (1): [available, frozen]. */
  abstract balance(holder: number, asset: 0 | 1): [bigint, bigint];

  /** The sum of the orders' left at a level of the window, of the asks (1) or the bids (2). */
  protected abstract levelTotal(side: 1 | 2, level: number): number;

  /** Sorted [ticks, total left] of each side's levels, best first. */
  levels(side: 1 | 2): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < FLOOR_SPAN; i++) {
      const level = side === 1 ? i : FLOOR_SPAN - 1 - i;
      const total = this.levelTotal(side, level);
      if (total > 0) out.push([level + this.base, total]);
    }
    return out;
  }

  /** Per asset, the sum over every holder, available and frozen. */
  totals(): [bigint, bigint] {
    let stock = 0n;
    let money = 0n;
    for (let holder = 0; holder <= this.roundingHolder; holder++) {
      const [a, f] = this.balance(holder, 0);
      const [b, g] = this.balance(holder, 1);
      stock += a + f;
      money += b + g;
    }
    return [stock, money];
  }

  // --- reading a command's fields -------------------------------------------------------------

  protected userOf(userId: unknown): number {
    if (
      typeof userId !== 'number' ||
      !Number.isInteger(userId) ||
      userId < 1 ||
      userId > this.users
    ) {
      throw new Error('ledger floor: unknown user');
    }
    return userId;
  }

  protected checkOrder(market: unknown, side: unknown, source: unknown): void {
    if (market !== this.market) throw new Error('ledger floor: unknown market');
    if (side !== 1 && side !== 2) throw new Error('ledger floor: bad side');
    if (source !== 'api' && source !== 'web') throw new Error('ledger floor: bad source');
  }

  /**
   * A price's ticks: on its tick and within the window. The bigint is read as the engine reads
   * it (ColumnarMarket.ticksOfPrice), without Number()'s call into V8's runtime.
   */
  protected ticksOf(price: unknown): number {
    const p = typeof price === 'bigint' ? positiveSafeOf(price) : -1;
    const ticks = p < 0 ? -1 : exactQuotientN(p, this.tickSize);
    if (ticks < 0) throw new Error('ledger floor: price off its tick');
    if (ticks < this.base || ticks >= this.base + FLOOR_SPAN)
      throw new Error('ledger floor: price beyond the window');
    return ticks;
  }

  /** An amount of at least the minimum, a safe integer, read as the engine reads it. */
  protected amountOf(amount: unknown): number {
    const n = typeof amount === 'bigint' ? positiveSafeOf(amount) : -1;
    if (n <= 0 || n < this.minAmount) throw new Error('ledger floor: bad amount');
    return n;
  }
}
