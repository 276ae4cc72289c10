// The ledger floor's ledger and log (ledgerFloor.ts): every holder's balances as two exact limbs,
// and the log of numbers that records each balance change as a leg and each order change and
// deal as a record, each with the next global sequence number; with the moves that change a
// balance and record it, the records of an order and a deal, and the reading back of a balance
// for the bench's check. The layout of the log's records and their kinds are set here.
import {
  addToLimbs,
  limbsAtLeast,
  limbsToBigInt,
  setLimbs,
} from '../packages/engine/src/columnar/limbs.js';
import type { LedgerFloorSetup } from './ledgerFloorBase.js';
import {
  F_AMOUNT,
  F_CTIME,
  F_DEAL_FEE,
  F_DEAL_STOCK,
  F_ID,
  F_LEFT,
  F_LEVEL,
  F_MONEY_UNITS,
  F_SIDE,
  F_USER,
  LedgerFloorBook,
  WIDTH,
} from './ledgerFloorBook.js';

const LOG_NUMBERS = 1 << 16;
export const STOCK = 0;
export const MONEY = 1;

// Record kinds in the log.
const R_LEG = 1;
export const R_PUT = 2;
export const R_UPDATE = 3;
export const R_FINISH = 4;
const R_DEAL = 5;

export abstract class LedgerFloorLedger extends LedgerFloorBook {
  /**
   * Per holder and asset, (holder × 2 + asset) × 4: available and frozen, each two exact limbs
   * (hi × 2^52 + lo, lo in [0, 2^52)) as the engine keeps them, so 10^20 needs no bigint.
   */
  private readonly balances: Float64Array;
  private readonly log = new Float64Array(LOG_NUMBERS);
  private logLength = 0;
  private seq = 0;
  private dealId = 0;
  protected time = 0;

  constructor(setup: LedgerFloorSetup) {
    super(setup);
    this.balances = new Float64Array((setup.users + 2) * 8);
    for (let user = 1; user <= setup.users; user++) {
      for (const asset of [STOCK, MONEY]) {
        if (!setLimbs(this.balances, (user * 2 + asset) * 4, setup.balance)) {
          throw new Error('ledger floor: an opening balance beyond the limbs');
        }
      }
    }
  }

  /** As Engine.releaseResults: no result so far will be read, so the log starts over. */
  releaseResults(): void {
    this.logLength = 0;
  }

  balance(user: number, asset: 0 | 1): [bigint, bigint] {
    const cell = (user * 2 + asset) * 4;
    return [limbsToBigInt(this.balances, cell), limbsToBigInt(this.balances, cell + 2)];
  }

  // --- the ledger and the log ----------------------------------------------------------------

  private reserve(numbers: number): number {
    const at = this.logLength;
    if (at + numbers > LOG_NUMBERS) throw new Error('ledger floor: results not released');
    this.logLength = at + numbers;
    return at;
  }

  protected hasAvailable(holder: number, asset: number, need: number): boolean {
    const cell = (holder * 2 + asset) * 4;
    return limbsAtLeast(this.balances, cell, need);
  }

  /** Moves a balance and records the leg; a balance below zero is a bug. */
  protected move(holder: number, asset: number, availableDelta: number, frozenDelta: number): void {
    const cell = (holder * 2 + asset) * 4;
    const balances = this.balances;
    // The limbs hold negative values too (the engine's external account); here none may be.
    if (
      (availableDelta !== 0 && !addToLimbs(balances, cell, availableDelta)) ||
      (frozenDelta !== 0 && !addToLimbs(balances, cell + 2, frozenDelta)) ||
      balances[cell]! < 0 ||
      balances[cell + 2]! < 0
    ) {
      throw new Error('ledger floor: negative balance');
    }
    const at = this.reserve(10);
    const log = this.log;
    log[at] = R_LEG;
    log[at + 1] = ++this.seq;
    log[at + 2] = holder;
    log[at + 3] = asset;
    log[at + 4] = availableDelta;
    log[at + 5] = frozenDelta;
    log[at + 6] = balances[cell]!;
    log[at + 7] = balances[cell + 1]!;
    log[at + 8] = balances[cell + 2]!;
    log[at + 9] = balances[cell + 3]!;
  }

  protected record(kind: number, slot: number): void {
    const rows = this.rows;
    const row = slot * WIDTH;
    const at = this.reserve(13);
    const log = this.log;
    log[at] = kind;
    log[at + 1] = ++this.seq;
    log[at + 2] = rows[row + F_ID]!;
    log[at + 3] = rows[row + F_USER]!;
    log[at + 4] = rows[row + F_SIDE]!;
    log[at + 5] = rows[row + F_LEVEL]!;
    log[at + 6] = rows[row + F_AMOUNT]!;
    log[at + 7] = rows[row + F_LEFT]!;
    log[at + 8] = rows[row + F_DEAL_STOCK]!;
    log[at + 9] = rows[row + F_MONEY_UNITS]!;
    log[at + 10] = rows[row + F_DEAL_FEE]!;
    log[at + 11] = rows[row + F_CTIME]!;
    log[at + 12] = this.time;
  }

  protected recordDeal(
    taker: number,
    maker: number,
    ticks: number,
    qty: number,
    money: number,
    buyerFee: number,
    sellerFee: number,
  ): void {
    const at = this.reserve(10);
    const log = this.log;
    log[at] = R_DEAL;
    log[at + 1] = ++this.seq;
    log[at + 2] = ++this.dealId;
    log[at + 3] = this.rows[taker * WIDTH + F_ID]!;
    log[at + 4] = this.rows[maker * WIDTH + F_ID]!;
    log[at + 5] = ticks;
    log[at + 6] = qty;
    log[at + 7] = money;
    log[at + 8] = buyerFee;
    log[at + 9] = sellerFee;
  }
}
