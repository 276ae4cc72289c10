// The columnar core's events as numbers: each command writes records into the event log's
// current chunk (logChunks.ts), and its result reads them there, into the engine's event objects,
// when first read.
//
// A record holds every value its event shows (no slot, no row), so a result stays right after
// later commands have changed or freed the orders it names. Reading it needs only names, which
// are never removed (assets and markets), and tick sizes, which never change.

import { checkDoubleEntry } from '../doubleEntry.js';
import { InvariantViolation } from '../errors.js';
import { ACCOUNT_KINDS } from '../ledger.js';
import { LTT } from '../state.js';
import type {
  Accepted,
  BalanceLeg,
  CommandResult,
  EngineEvent,
  FinishReason,
  OrderView,
  Owner,
} from '../types.js';
import { limbsToBigInt } from './limbs.js';
import type { LogChunk } from './logChunks.js';
import {
  O_ALGORITHM,
  O_AMOUNT,
  O_CTIME,
  O_DEAL_FEE,
  O_DEAL_FEE_LTT,
  O_DEAL_MONEY,
  O_DEAL_STOCK,
  O_FINISH_REASON,
  O_FTIME,
  O_ID,
  O_LEFT,
  O_LIMIT_TICKS,
  O_MARKET,
  O_MTIME,
  O_OCO_ID,
  O_SIDE,
  O_SOURCE,
  O_STOP_TICKS,
  O_TICKS,
  O_TIME_IN_FORCE,
  O_TOTAL,
  O_TRIGGERED,
  O_TYPE,
} from './orderRow.js';
import { SOURCE_CODES, TIME_IN_FORCE_CODES } from './orderTable.js';
import {
  BALANCE_HEAD,
  DEAL_MAKER_LTT,
  DEAL_RECORD,
  DEAL_TAKER_LTT,
  K_BALANCE,
  K_DEAL,
  K_ORDER,
  LEG_RECORD,
  ORDER_RECORD,
  ORDER_RECORD_EXTENDED,
  OWNER_FEES,
  OWNER_ROUNDING,
  R_AMOUNT,
  R_CTIME,
  R_DEAL_FEE,
  R_DEAL_FEE_LTT,
  R_DEAL_MONEY,
  R_DEAL_STOCK,
  R_FINISH_REASON,
  R_FTIME,
  R_ID,
  R_LEFT,
  R_LIMIT_TICKS,
  R_MARKET,
  R_MTIME,
  R_OCO_ID,
  R_SIDE,
  R_SOURCE,
  R_STOP_TICKS,
  R_TICKS,
  R_TIME_IN_FORCE,
  R_TOTAL,
  R_TYPE,
  R_USER_ID,
  RESULT_ORDER,
  T_COUNT,
  T_KIND,
  T_OFFSETS,
  T_START,
  T_TIME,
  TYPE_EXTENDED,
} from './recordLayout.js';

/** An order event's type, by its code in an order record (EV_PUT... in recordLayout.ts). */
export const ORDER_EVENT_TYPES = [
  'order.put',
  'order.update',
  'order.finish',
  'order.triggered',
] as const;

/** A balance event's business, by its code in the event's head (BUSINESS_TRADE... there). */
export const BUSINESSES = ['trade', 'order_freeze', 'order_release'] as const;

/**
 * What reading records needs: names by index, and each market's tick size; and whom to tell when
 * a result's records fail a check as they are read (the engine, which then stops).
 */
export interface RecordNames {
  readonly assetNames: readonly string[];
  readonly markets: readonly {
    readonly name: string;
    readonly tickSize: bigint;
    readonly moneyName: string;
  }[];
  broken?: (reason: string) => void;
}

function ownerOf(code: number): Owner {
  if (code > 0) return code;
  return code === OWNER_FEES ? 'fees' : code === OWNER_ROUNDING ? 'rounding' : 'external';
}

/** The size of the record of the order in row `row` of `ord`. */
export function orderRecordSize(ord: Float64Array, row: number): number {
  return ord[row + O_ALGORITHM] === 0 && ord[row + O_DEAL_FEE_LTT] === 0
    ? ORDER_RECORD
    : ORDER_RECORD_EXTENDED;
}

/**
 * Write the view's numbers of the order in row `row` of `ord` into an order record at `at`, of
 * orderRecordSize (its kind, sequence number and type are the caller's): an event, or a query's
 * view.
 */
export function writeOrderRecord(
  log: Float64Array,
  at: number,
  ord: Float64Array,
  row: number,
  userId: number,
): void {
  log[at + R_ID] = ord[row + O_ID]!;
  log[at + R_USER_ID] = userId;
  log[at + R_MARKET] = ord[row + O_MARKET]!;
  log[at + R_SIDE] = ord[row + O_SIDE]!;
  const algorithm = ord[row + O_ALGORITHM]!;
  const feeLtt = ord[row + O_DEAL_FEE_LTT]!;
  const extended = algorithm !== 0 || feeLtt !== 0;
  log[at + R_TYPE] =
    ord[row + O_TYPE]! + 4 * algorithm + 16 * ord[row + O_TRIGGERED]! + (extended ? 32 : 0);
  log[at + R_TIME_IN_FORCE] = ord[row + O_TIME_IN_FORCE]!;
  log[at + R_SOURCE] = ord[row + O_SOURCE]!;
  log[at + R_AMOUNT] = ord[row + O_AMOUNT]!;
  log[at + R_TOTAL] = ord[row + O_TOTAL]!;
  log[at + R_TICKS] = ord[row + O_TICKS]!;
  log[at + R_LEFT] = ord[row + O_LEFT]!;
  log[at + R_DEAL_STOCK] = ord[row + O_DEAL_STOCK]!;
  log[at + R_DEAL_MONEY] = ord[row + O_DEAL_MONEY]!;
  log[at + R_DEAL_FEE] = ord[row + O_DEAL_FEE]!;
  log[at + R_CTIME] = ord[row + O_CTIME]!;
  log[at + R_MTIME] = ord[row + O_MTIME]!;
  log[at + R_FTIME] = ord[row + O_FTIME]!;
  log[at + R_FINISH_REASON] = ord[row + O_FINISH_REASON]!;
  if (!extended) return;
  log[at + R_STOP_TICKS] = ord[row + O_STOP_TICKS]!;
  log[at + R_LIMIT_TICKS] = ord[row + O_LIMIT_TICKS]!;
  log[at + R_OCO_ID] = ord[row + O_OCO_ID]!;
  log[at + R_DEAL_FEE_LTT] = feeLtt;
}

/** The size of the order record at `at`. */
function orderRecordSizeAt(log: Float64Array, at: number): number {
  return log[at + R_TYPE]! < TYPE_EXTENDED ? ORDER_RECORD : ORDER_RECORD_EXTENDED;
}

/** The order view an order record shows. */
export function viewOfRecord(log: Float64Array, at: number, names: RecordNames): OrderView {
  const market = names.markets[log[at + R_MARKET]!]!;
  const finish = log[at + R_FINISH_REASON]!;
  const packed = log[at + R_TYPE]!;
  const extended = packed >= TYPE_EXTENDED;
  const tick = market.tickSize;
  return {
    id: log[at + R_ID]!,
    userId: log[at + R_USER_ID]!,
    platform: SOURCE_CODES[log[at + R_SOURCE]!]!,
    algorithm: ((packed >> 2) & 3) as 0 | 1 | 2,
    market: market.name,
    account: 0,
    side: log[at + R_SIDE]! as 1 | 2,
    type: (packed & 3) as 1 | 2,
    timeInForce: TIME_IN_FORCE_CODES[log[at + R_TIME_IN_FORCE]!]!,
    amount: BigInt(log[at + R_AMOUNT]!),
    total: BigInt(log[at + R_TOTAL]!),
    price: BigInt(log[at + R_TICKS]!) * tick,
    stop_price: extended ? BigInt(log[at + R_STOP_TICKS]!) * tick : 0n,
    limit_price: extended ? BigInt(log[at + R_LIMIT_TICKS]!) * tick : 0n,
    left: BigInt(log[at + R_LEFT]!),
    deal_stock: BigInt(log[at + R_DEAL_STOCK]!),
    deal_money: BigInt(log[at + R_DEAL_MONEY]!),
    deal_fee: BigInt(log[at + R_DEAL_FEE]!),
    deal_fee_ltt: extended ? BigInt(log[at + R_DEAL_FEE_LTT]!) : 0n,
    triggered: (packed & 16) !== 0,
    oco_id: extended ? log[at + R_OCO_ID]! : 0,
    ctime: log[at + R_CTIME]!,
    mtime: log[at + R_MTIME]!,
    ftime: log[at + R_FTIME]!,
    finish_reason: finish < 0 ? null : (finish as FinishReason),
  };
}

function legAt(log: Float64Array, at: number, names: RecordNames): BalanceLeg {
  return {
    owner: ownerOf(log[at]!),
    account: ACCOUNT_KINDS[log[at + 1]!]!,
    asset: names.assetNames[log[at + 2]!]!,
    availableDelta: BigInt(log[at + 3]!),
    frozenDelta: BigInt(log[at + 4]!),
    available: limbsToBigInt(log, at + 5),
    frozen: limbsToBigInt(log, at + 7),
  };
}

/** The events the records in log[start, end) stand for, in order. */
export function eventsOfRecords(
  log: Float64Array,
  start: number,
  end: number,
  time: number,
  names: RecordNames,
): EngineEvent[] {
  const out: EngineEvent[] = [];
  let at = start;
  while (at < end) {
    const kind = log[at]!;
    const seq = log[at + 1]!;
    if (kind === K_ORDER) {
      const type = ORDER_EVENT_TYPES[log[at + 2]!]!;
      out.push({ seq, time, type, order: viewOfRecord(log, at, names) });
      at += orderRecordSizeAt(log, at);
    } else if (kind === K_DEAL) {
      const market = names.markets[log[at + 3]!]!;
      const sideAndAssets = log[at + 7]!;
      out.push({
        seq,
        time,
        type: 'deal',
        id: log[at + 2]!,
        market: market.name,
        price: BigInt(log[at + 4]!) * market.tickSize,
        amount: BigInt(log[at + 5]!),
        total: BigInt(log[at + 6]!),
        takerSide: (sideAndAssets & 3) as 1 | 2,
        makerOrderId: log[at + 8]!,
        takerOrderId: log[at + 9]!,
        makerUserId: log[at + 10]!,
        takerUserId: log[at + 11]!,
        makerFee: BigInt(log[at + 12]!),
        makerFeeAsset: sideAndAssets & DEAL_MAKER_LTT ? LTT : market.moneyName,
        takerFee: BigInt(log[at + 13]!),
        takerFeeAsset: sideAndAssets & DEAL_TAKER_LTT ? LTT : market.moneyName,
      });
      at += DEAL_RECORD;
    } else if (kind === K_BALANCE) {
      const count = log[at + 5]!;
      const legs: BalanceLeg[] = [];
      for (let k = 0; k < count; k++)
        legs.push(legAt(log, at + BALANCE_HEAD + k * LEG_RECORD, names));
      checkDoubleEntry(legs, BUSINESSES[log[at + 2]!]!, log[at + 3]!);
      out.push({
        seq,
        time,
        type: 'balance',
        business: BUSINESSES[log[at + 2]!]!,
        businessId: null,
        orderId: log[at + 3]!,
        dealId: log[at + 4]!,
        legs,
      });
      at += BALANCE_HEAD + count * LEG_RECORD;
    } else {
      throw new Error(`unknown event record ${kind} at ${at}`);
    }
  }
  return out;
}

/** A result's events and result, each once it has been read. */
interface Decoded {
  events: EngineEvent[] | null;
  result: CommandResult | null;
}

/**
 * An accepted command whose events and result are made from its records, which end where its
 * trailer (at `at`) starts, when first read. The log is not written there again until the
 * engine's user releases the results made so far (Engine.releaseResults); a result read after
 * that throws.
 * NOTE: `events` and `result` are getters on the prototype: code that copies a result's own
 * properties (a spread, a deep comparison) must read them by name; JSON gets them from toJSON.
 */
export class ColumnarAccepted implements Accepted {
  readonly ok = true;
  /**
   * What has been read so far, made on the first read of either. NOTE: one field for both, and
   * the names on the chunk: a result is made for every accepted command, and each field costs 8
   * bytes of it (docs/decisions/columnar-engine-speed.md, "The result object").
   */
  private decoded: Decoded | null = null;

  /** The chunk's generation when the result was made: its records are there while it holds. */
  private readonly generation: number;

  constructor(
    private readonly chunk: LogChunk,
    /** The offset of the command's trailer (T_START...). */
    private readonly at: number,
  ) {
    this.generation = chunk.generation;
  }

  /** The log holding the records; throws once it has been reused (Engine.releaseResults). */
  private get log(): Float64Array {
    if (this.chunk.generation !== this.generation) {
      throw new Error('An engine result was read after Engine.releaseResults() let it go');
    }
    return this.chunk.data;
  }

  get events(): EngineEvent[] {
    this.decoded ??= { events: null, result: null };
    this.decoded.events ??= this.decodeEvents();
    return this.decoded.events;
  }

  get result(): CommandResult {
    this.decoded ??= { events: null, result: null };
    this.decoded.result ??= this.decodeResult();
    return this.decoded.result;
  }

  toJSON(): Accepted {
    return { ok: true, events: this.events, result: this.result };
  }

  private decodeEvents(): EngineEvent[] {
    const log = this.log;
    const at = this.at;
    const names = this.chunk.names;
    try {
      return eventsOfRecords(log, log[at + T_START]!, at, log[at + T_TIME]!, names);
    } catch (error) {
      // Only a bug makes records that fail a check (doubleEntry.ts): the state the command left
      // is wrong, so the engine stops as if the command had thrown.
      if (error instanceof InvariantViolation) names.broken?.(error.message);
      throw error;
    }
  }

  private decodeResult(): CommandResult {
    const log = this.log;
    const at = this.at;
    const offsets = log.subarray(at + T_OFFSETS, at + T_OFFSETS + log[at + T_COUNT]!);
    const orders = Array.from(offsets, (record) => viewOfRecord(log, record, this.chunk.names));
    if (log[at + T_KIND] === RESULT_ORDER) return { kind: 'order', order: orders[0]! };
    return { kind: 'orders', orders };
  }
}
