// The columnar core's state and its event log (docs/decisions/columnar-engine.md): the order and
// balance tables, the holders and the markets, and the writers through which every change to
// them is recorded as it is made (`move` changes a balance and writes its leg, `emitOrder` an
// order's current view), up to each command's result.
//
// NOTE: the core is one object built in layers, each a class in a module of its own that extends
// the one before: this state and its log; the settlement of fills (settlement.ts); matching and
// an order's life on the book (matching.ts); an order's bounds within the core's ranges
// (orderBounds.ts); limit and market orders (orderPlacement.ts); stop-limit and OCO orders
// (conditionalOrders.ts); and the commands (core.ts). Layers of one
// object, not objects that hold each other: the hot path reads all of this through `this`. With
// the log in an object of its own behind a field, the engine ran at 0.853 to 0.949 of this
// code's rate per CPU second on the bench's workload (six runs, both in one process, alternating
// chunks), and a later such module measured 2 to 4 per cent slower ("The event log in a module of
// its own", columnar-engine-speed.md).

import { InvariantViolation } from '../errors.js';
import type { State } from '../state.js';
import type { ApplyResult } from '../types.js';
import { CELL_AVAILABLE, CELL_FROZEN } from './balanceCell.js';
import { BalanceTable } from './balanceTable.js';
import type { ColumnarMarket } from './columnarMarket.js';
import { HolderRegistry } from './holders.js';
import { LOG_CHUNK, LogChunks } from './logChunks.js';
import { NONE, O_ID, O_USER, ORDER_WIDTH } from './orderRow.js';
import { OrderTable } from './orderTable.js';
import {
  BALANCE_HEAD,
  K_BALANCE,
  K_ORDER,
  LEG_RECORD,
  RESULT_ORDERS,
  T_COUNT,
  T_KIND,
  T_OFFSETS,
  T_START,
  T_TIME,
} from './recordLayout.js';
import {
  ColumnarAccepted,
  orderRecordSize,
  type RecordNames,
  writeOrderRecord,
} from './records.js';

/** The core's state and the writers of its event log: the layer every other extends. */
export abstract class RecordedState {
  /** The registry the bigint core's handlers run on for the rare commands (core.ts). */
  readonly meta: State;
  readonly table = new OrderTable(1 << 12);
  readonly balances = new BalanceTable();
  readonly holders: HolderRegistry;
  readonly markets: ColumnarMarket[] = [];
  readonly marketsByName = new Map<string, ColumnarMarket>();
  readonly assetNames: string[] = [];
  /** What reading a result's records needs (shares the arrays above, which only grow). */
  readonly names: RecordNames = { assetNames: this.assetNames, markets: this.markets };
  // The event log: commands append their records to a chunk, and results keep reading their
  // part of it, so a full chunk is not written again until its results are released.
  private readonly chunks = new LogChunks(this.names);
  private chunk = this.chunks.next(LOG_CHUNK);
  /** The current chunk's numbers. */
  protected log = this.chunk.data;
  /** Where the command's records start, and the end of what is written. */
  protected logStart = 0;
  protected logLength = 0;
  /** The command's time (ColumnarCore.apply). */
  protected time = 0;
  // The command's own orders (an OCO pair has two) and where, from logStart, the last record of
  // each is: their views in the result.
  protected resultId = NONE;
  protected resultAt = 0;
  protected resultId2 = NONE;
  protected resultAt2 = 0;
  /** The balance event being written (endBalance writes its leg count). */
  private balanceAt = 0;

  constructor(meta: State) {
    this.meta = meta;
    this.holders = new HolderRegistry(this.meta, this.balances);
  }

  /**
   * The command's result: RESULT_ORDER shows the command's order; RESULT_ORDERS the records at
   * `listed` (offsets from logStart), or else the OCO pair's.
   */
  protected accepted(resultKind: number, listed?: number[]): ApplyResult {
    const offsets =
      resultKind === RESULT_ORDERS ? (listed ?? [this.resultAt, this.resultAt2]) : null;
    const count = offsets === null ? 1 : offsets.length;
    // The trailer follows the records (records.ts); a full chunk may move them first.
    const at = this.reserve(T_OFFSETS + count);
    const start = this.logStart;
    const log = this.log;
    log[at + T_START] = start;
    log[at + T_TIME] = this.time;
    log[at + T_KIND] = resultKind;
    log[at + T_COUNT] = count;
    if (offsets === null) log[at + T_OFFSETS] = start + this.resultAt;
    else for (let k = 0; k < count; k++) log[at + T_OFFSETS + k] = start + offsets[k]!;
    return new ColumnarAccepted(this.chunk, at);
  }

  /**
   * No result returned so far will be read again: the log may reuse their memory, the current
   * chunk's too. The next command writes from the chunk's start, so a host that releases after
   * every batch writes its events into the same few tens of kilobytes, which stay in the cache,
   * instead of walking through megabytes of chunks (on the bench's workload, with the baseline
   * in the same process, the ratio rose from 3.14–3.36 to 3.39–3.51; "Closing in on the
   * floor", columnar-engine-speed.md).
   */
  releaseResults(): void {
    this.chunks.release();
    // A result made in this chunk reads its records no more (ColumnarAccepted checks).
    this.chunk.generation++;
    this.logStart = 0;
    this.logLength = 0;
  }

  /** Room for `n` numbers at the end of the log; a full chunk moves the command to a new one. */
  protected reserve(n: number): number {
    const at = this.logLength;
    if (at + n > this.log.length) return this.reserveInNewChunk(n);
    this.logLength = at + n;
    return at;
  }

  /**
   * `reserve` when the chunk is full: the command's records so far move to a new chunk. NOTE:
   * apart from `reserve`, which every record's writer inlines: with this in it, `reserve` was
   * 193 bytes of bytecode, each inlined copy spending that much of what the compiler inlines
   * into one function ("Rare paths out of inlined functions",
   * docs/decisions/columnar-engine.md).
   */
  private reserveInNewChunk(n: number): number {
    const at = this.logLength;
    const start = this.logStart;
    const written = at - start;
    const next = this.chunks.next(Math.max(LOG_CHUNK, 2 * (written + n)));
    next.data.set(this.log.subarray(start, at));
    this.chunks.retire(this.chunk);
    this.chunk = next;
    this.log = next.data;
    this.logStart = 0;
    this.balanceAt -= start;
    this.logLength = written + n;
    return written;
  }

  /**
   * Record an order event with the order's current view; the record's offset from logStart (a
   * full chunk moves the command's records, not their offsets from its start).
   */
  protected emitOrder(type: number, o: number): number {
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    const at = this.reserve(orderRecordSize(ord, row));
    const log = this.log;
    log[at] = K_ORDER;
    log[at + 1] = ++this.meta.lastEventSeq;
    log[at + 2] = type;
    writeOrderRecord(log, at, ord, row, this.holders.ownerCode(ord[row + O_USER]!));
    const fromStart = at - this.logStart;
    const id = ord[row + O_ID];
    if (id === this.resultId) this.resultAt = fromStart;
    else if (id === this.resultId2) this.resultAt2 = fromStart;
    return fromStart;
  }

  /** Start a balance event; its legs follow, and endBalance writes their count. */
  protected beginBalance(business: number, orderId: number, dealId: number): void {
    const at = this.reserve(BALANCE_HEAD);
    this.balanceAt = at;
    const log = this.log;
    log[at] = K_BALANCE;
    log[at + 1] = ++this.meta.lastEventSeq;
    log[at + 2] = business;
    log[at + 3] = orderId;
    log[at + 4] = dealId;
  }

  protected endBalance(): void {
    const at = this.balanceAt;
    this.log[at + 5] = (this.logLength - at - BALANCE_HEAD) / LEG_RECORD;
  }

  /** Move a balance and record the leg; a balance below zero is a bug, never input. */
  protected move(
    holder: number,
    asset: number,
    kind: 0 | 1 | 2,
    availableDelta: number,
    frozenDelta: number,
  ): void {
    const balances = this.balances;
    const cell = balances.cell(holder, kind);
    if (!balances.move(asset, cell, availableDelta, frozenDelta)) {
      this.refusedMove(holder, asset, cell, availableDelta, frozenDelta);
    }
    const values = balances.valuesOf(asset);
    const at = this.reserve(LEG_RECORD);
    const log = this.log;
    log[at] = this.holders.ownerCode(holder);
    log[at + 1] = kind;
    log[at + 2] = asset;
    log[at + 3] = availableDelta;
    log[at + 4] = frozenDelta;
    log[at + 5] = values[cell + CELL_AVAILABLE]!;
    log[at + 6] = values[cell + CELL_AVAILABLE + 1]!;
    log[at + 7] = values[cell + CELL_FROZEN]!;
    log[at + 8] = values[cell + CELL_FROZEN + 1]!;
  }

  /**
   * A move the balance table refused: a balance below zero is a bug, never input. Apart from
   * `move`, whose calls the settlement needs inlined (see ceilDivN in fastmath.ts).
   */
  private refusedMove(
    holder: number,
    asset: number,
    cell: number,
    availableDelta: number,
    frozenDelta: number,
  ): never {
    const balances = this.balances;
    throw new InvariantViolation(
      `negative balance: holder ${holder} asset ${asset} ` +
        `available ${balances.available(asset, cell)} + ${availableDelta} ` +
        `frozen ${balances.frozen(asset, cell)} + ${frozenDelta}`,
    );
  }
}
