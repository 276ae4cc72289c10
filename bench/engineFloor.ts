// The engine floor: how fast an engine in the columnar representation could run the bench's
// workload, measured with a prototype that does the same work as the engine on it and no more.
//
// It is not the engine. It knows one market whose deal ratios are small integers (fastmath.ts
// in the engine), GTC limit orders, market orders by amount and cancels, and it stops with an
// error on anything else or on any quantity beyond 2^53 (where the engine takes its bigint
// path). Within that, it does what the engine does: validates every field, checks funds,
// matches in price-time order with self-trade prevention (cancel newest), settles each fill
// with the engine's rounding and fees, freezes and releases funds, keeps the per-user list of
// open orders, checks the book is not crossed, and records every event the engine emits with
// the same sequence numbers. What differs is the representation:
// - orders and price levels live in typed arrays (struct of arrays), addressed by slot;
// - balances are two exact number limbs (hi × 2^32 + lo), so 10^20 needs no bigint;
// - events are written as numbers into a reused log and become the engine's event objects
//   only when read (`events()`), as the host would read them.
// `bench/engine.ts --floor` checks that `events()` equals the engine's events, operation by
// operation, before it times anything.
import type {
  BalanceLeg,
  Command,
  EngineEvent,
  MarketView,
  OrderCancelCommand,
  OrderLimitCommand,
  OrderMarketCommand,
  OrderView,
  Owner,
} from '@lattice/engine';

const LIMB = 4294967296; // 2^32
const SAFE = Number.MAX_SAFE_INTEGER;
const SAFE_BIG = BigInt(SAFE);
const NONE = -1;

// Event record kinds in the log, and the order event types they stand for.
const EV_ORDER = 1;
const EV_DEAL = 2;
const EV_BALANCE = 3;
const ORDER_EVENT_TYPES = ['order.put', 'order.update', 'order.finish'] as const;
const PUT = 0;
const UPDATE = 1;
const FINISH = 2;
const BUSINESSES = ['trade', 'order_freeze', 'order_release'] as const;
const TRADE = 0;
const ORDER_FREEZE = 1;
const ORDER_RELEASE = 2;

// An order's fields, at these offsets in its row of `ord` (one row per slot, so that one
// order's fields share a few cache lines instead of touching one line per field).
const O_ID = 0;
const O_USER = 1;
const O_SIDE = 2;
const O_TYPE = 3;
const O_SOURCE = 4;
const O_TICKS = 5;
const O_AMOUNT = 6;
const O_LEFT = 7;
const O_DEAL_STOCK = 8;
const O_DEAL_MONEY = 9;
const O_DEAL_FEE = 10;
const O_MONEY_UNITS = 11;
const O_FEE_UNITS = 12;
const O_FROZEN = 13;
const O_FUNDS_FROZEN = 14;
const O_CTIME = 15;
const O_MTIME = 16;
const O_FINISH = 17;
const O_PREV = 18;
const O_NEXT = 19;
const O_LEVEL = 20;
const O_USER_PREV = 21;
const O_USER_NEXT = 22;
const ORDER_WIDTH = 23;
// A price level's row in `lv`.
const L_TICKS = 0;
const L_HEAD = 1;
const L_TAIL = 2;
const L_TOTAL = 3;
const LEVEL_WIDTH = 4;
// A balance's row in `bal`: available and frozen as hi × 2^32 + lo.
const B_AVAIL_HI = 0;
const B_AVAIL_LO = 1;
const B_FROZEN_HI = 2;
const B_FROZEN_LO = 3;

const STOP_FILLED = 0;
const STOP_NO_LIQUIDITY = 1;
const STOP_PRICE = 2;
const STOP_SELF_TRADE = 3;

/** The engine's view of the market, and 10^stock decimals. */
export interface FloorMarket extends MarketView {
  scale: bigint;
}

export interface FloorStart {
  users: number;
  /** Each user's trade balances of stock and money (equal for every user). */
  stockBalance: bigint;
  moneyBalance: bigint;
  lastEventSeq: number;
  nextOrderId: number;
  nextDealId: number;
}

export interface FloorResult {
  ok: boolean;
  code: string;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function small(v: bigint): number {
  if (v < 0n || v > SAFE_BIG) throw new Error('engine floor: a market ratio beyond 2^53');
  return Number(v);
}

/** Beyond this the engine takes its bigint path, which the floor does not have. */
function checked(v: number): number {
  if (v > SAFE) throw new Error('engine floor: a quantity beyond 2^53');
  return v;
}

function floorDiv(a: number, b: number): number {
  return (a - (a % b)) / b;
}

function ceilDiv(a: number, b: number): number {
  const r = a % b;
  return r === 0 ? a / b : (a - r) / b + 1;
}

/** Growable typed columns share this doubling. */
function grown<T extends Float64Array | Int32Array | Uint8Array>(a: T, size: number): T {
  const next = new (a.constructor as new (n: number) => T)(size);
  next.set(a);
  return next;
}

export class EngineFloor {
  // Market constants (fastmath.ts: value = lotsTicks × valueP / valueQ, fee likewise).
  private readonly marketName: string;
  private readonly stock: string;
  private readonly money: string;
  private readonly tickSize: bigint;
  private readonly tickN: number;
  private readonly lotN: number;
  private readonly minAmountN: number;
  private readonly priceMaxBig: bigint;
  private readonly valueP: number;
  private readonly valueQ: number;
  private readonly feeP: number;
  private readonly feeQ: number;
  private readonly makerRate: number;
  private readonly takerRate: number;
  private readonly maxRate: number;
  /** The last trade's price in ticks (the engine's Market.last), 0 before the first. */
  private lastTicks = 0;

  // Balances: holder h (users 1..n, then fees, then rounding) × asset a (0 stock, 1 money).
  private readonly nUsers: number;
  private readonly feesHolder: number;
  private readonly roundingHolder: number;
  private readonly bal: Float64Array;
  /** Head slot of each user's open orders (newest first). */
  private readonly userHead: Int32Array;

  // Orders, by slot.
  private capacity = 1 << 14;
  private ord = new Float64Array(this.capacity * ORDER_WIDTH);
  private freeSlots = new Int32Array(this.capacity);
  private freeCount = 0;
  private usedSlots = 0;
  /** Slots of orders finished by the command before: their events may still be read. */
  private retired = new Int32Array(64);
  private retiredCount = 0;
  /** Open order id → slot (ids are consecutive). */
  private slotOfId = new Int32Array(1 << 16).fill(NONE);

  // Price levels, by level number; each side keeps its levels sorted, best last.
  private levelCapacity = 1 << 12;
  private lv = new Float64Array(this.levelCapacity * LEVEL_WIDTH);
  private levelFree = new Int32Array(this.levelCapacity);
  private levelFreeCount = 0;
  private levelsUsed = 0;
  /** [asks, bids]: level numbers sorted by key ascending (key: -ticks for asks, ticks for bids). */
  private sideLevels = [new Int32Array(1 << 12), new Int32Array(1 << 12)];
  private sideCount = [0, 0];

  // The event log of the command being applied.
  private log = new Float64Array(1 << 12);
  private logLength = 0;
  private eventSeq: number;
  private nextOrderId: number;
  private nextDealId: number;
  private time = 0;
  private readonly result: FloorResult = { ok: true, code: '' };

  constructor(m: FloorMarket, start: FloorStart) {
    this.marketName = m.name;
    this.stock = m.stock;
    this.money = m.money;
    this.tickSize = m.tickSize;
    this.tickN = small(m.tickSize);
    this.lotN = small(m.lotSize);
    this.minAmountN = small(m.minAmount);
    this.priceMaxBig = m.tickSize * SAFE_BIG;
    const g =
      m.makerFeePpm === 0 && m.takerFeePpm === 0
        ? 1n
        : gcd(BigInt(m.makerFeePpm), BigInt(m.takerFeePpm));
    const moneyUnit = gcd(m.tickSize, m.scale);
    const feeTop = m.tickSize * g;
    const feeBottom = m.scale * 1_000_000n;
    const feeUnit = gcd(feeTop, feeBottom);
    this.valueP = small(m.tickSize / moneyUnit);
    this.valueQ = small(m.scale / moneyUnit);
    this.feeP = small(feeTop / feeUnit);
    this.feeQ = small(feeBottom / feeUnit);
    this.makerRate = Number(BigInt(m.makerFeePpm) / g);
    this.takerRate = Number(BigInt(m.takerFeePpm) / g);
    this.maxRate = Math.max(this.makerRate, this.takerRate);

    this.nUsers = start.users;
    this.feesHolder = start.users + 1;
    this.roundingHolder = start.users + 2;
    const cells = (start.users + 3) * 2;
    this.bal = new Float64Array(cells * 4);
    this.userHead = new Int32Array(start.users + 1).fill(NONE);
    const stockHi = Number(start.stockBalance / BigInt(LIMB));
    const stockLo = Number(start.stockBalance % BigInt(LIMB));
    const moneyHi = Number(start.moneyBalance / BigInt(LIMB));
    const moneyLo = Number(start.moneyBalance % BigInt(LIMB));
    for (let u = 1; u <= start.users; u++) {
      this.bal[u * 2 * 4 + B_AVAIL_HI] = stockHi;
      this.bal[u * 2 * 4 + B_AVAIL_LO] = stockLo;
      this.bal[(u * 2 + 1) * 4 + B_AVAIL_HI] = moneyHi;
      this.bal[(u * 2 + 1) * 4 + B_AVAIL_LO] = moneyLo;
    }
    this.eventSeq = start.lastEventSeq;
    this.nextOrderId = start.nextOrderId;
    this.nextDealId = start.nextDealId;
  }

  apply(cmd: Command): FloorResult {
    if (typeof cmd !== 'object' || cmd === null) return this.reject('invalid_command');
    const time = cmd.time;
    if (typeof time !== 'number' || !Number.isSafeInteger(time) || time < 0) {
      return this.reject('invalid_time');
    }
    this.time = time;
    this.logLength = 0;
    this.releaseRetired();
    switch (cmd.type) {
      case 'order.limit':
        return this.placeLimit(cmd);
      case 'order.market':
        return this.placeMarket(cmd);
      case 'order.cancel':
        return this.cancel(cmd);
      default:
        throw new Error(`engine floor: no ${String(cmd.type)}`);
    }
  }

  private reject(code: string): FloorResult {
    const r = this.result;
    r.ok = false;
    r.code = code;
    return r;
  }

  private accept(): FloorResult {
    const r = this.result;
    r.ok = true;
    r.code = '';
    return r;
  }

  private knownUser(userId: unknown): number {
    if (typeof userId !== 'number' || !Number.isSafeInteger(userId) || userId <= 0) return NONE;
    return userId <= this.nUsers ? userId : NONE;
  }

  /** The checks every order command shares; 0 when they pass, else a rejection's code. */
  private checkOrder(cmd: OrderLimitCommand | OrderMarketCommand): string {
    if (this.knownUser(cmd.userId) === NONE) return 'user_not_found';
    if (cmd.market !== this.marketName) return 'market_not_found';
    if (cmd.side !== 1 && cmd.side !== 2) return 'invalid_command';
    if (cmd.source !== 'web' && cmd.source !== 'api') return 'invalid_command';
    return '';
  }

  /** An amount's number after the engine's checks, or -1 with the rejection in `result`. */
  private amountOf(value: unknown): number {
    if (typeof value !== 'bigint' || value <= 0n) return -1;
    if (value > SAFE_BIG) throw new Error('engine floor: an amount beyond 2^53');
    const n = Number(value);
    if (n % this.lotN !== 0 || n < this.minAmountN) return -1;
    return n;
  }

  private ticksOf(value: unknown): number {
    if (typeof value !== 'bigint' || value <= 0n) return -1;
    if (value > SAFE_BIG) throw new Error('engine floor: a price beyond 2^53');
    const n = Number(value);
    if (n % this.tickN !== 0 || value > this.priceMaxBig) return -1;
    return n / this.tickN;
  }

  private placeLimit(cmd: OrderLimitCommand): FloorResult {
    const bad = this.checkOrder(cmd);
    if (bad !== '') return this.reject(bad);
    if (cmd.timeInForce !== 'GTC') throw new Error('engine floor: GTC only');
    const ticks = this.ticksOf(cmd.price);
    if (ticks < 0) return this.reject('invalid_price');
    const amount = this.amountOf(cmd.amount);
    if (amount < 0) return this.reject('invalid_amount');
    const side = cmd.side;
    const need = side === 1 ? amount : this.buyFreeze(checked(amount * ticks));
    const u = cmd.userId;
    if (!this.hasAvailable(u * 2 + (side === 1 ? 0 : 1), need)) {
      return this.reject('insufficient_balance');
    }
    const o = this.newOrder(u, side, 1, cmd.source === 'web' ? 0 : 1, ticks, amount);
    const why = this.matchTaker(o);
    if (this.ord[o * ORDER_WIDTH + O_LEFT] === 0) {
      this.finishOrder(o, 0);
    } else if (why === STOP_SELF_TRADE) {
      this.finishOrder(o, 1);
    } else {
      this.freezeForOrder(
        o,
        this.ord[o * ORDER_WIDTH + O_DEAL_STOCK] === 0 ? need : this.remainingNeed(o),
      );
      this.rest(o);
      this.emitOrder(PUT, o);
    }
    this.checkNotCrossed();
    return this.accept();
  }

  private placeMarket(cmd: OrderMarketCommand): FloorResult {
    const bad = this.checkOrder(cmd);
    if (bad !== '') return this.reject(bad);
    if (cmd.total !== undefined) throw new Error('engine floor: no market buy by total');
    const side = cmd.side;
    if (this.sideCount[side === 2 ? 0 : 1] === 0) return this.reject('not_enough_liquidity');
    const amount = this.amountOf(cmd.amount);
    if (amount < 0) return this.reject('invalid_amount');
    const need = side === 1 ? amount : this.marketBuyCost(amount);
    if (!this.hasAvailable(cmd.userId * 2 + (side === 1 ? 0 : 1), need)) {
      return this.reject('insufficient_balance');
    }
    const o = this.newOrder(cmd.userId, side, 2, cmd.source === 'web' ? 0 : 1, 0, amount);
    const why = this.matchTaker(o);
    this.finishOrder(o, why === STOP_FILLED ? 0 : why === STOP_SELF_TRADE ? 1 : 3);
    this.checkNotCrossed();
    return this.accept();
  }

  private cancel(cmd: OrderCancelCommand): FloorResult {
    const u = this.knownUser(cmd.userId);
    if (u === NONE) return this.reject('user_not_found');
    const id = cmd.orderId;
    const slot =
      typeof id === 'number' && Number.isSafeInteger(id) && id > 0 && id < this.slotOfId.length
        ? this.slotOfId[id]!
        : NONE;
    if (slot === NONE || this.ord[slot * ORDER_WIDTH + O_USER] !== u)
      return this.reject('order_not_found');
    this.unlinkFromLevel(slot);
    this.finishOrder(slot, 1);
    return this.accept();
  }

  // --- balances -----------------------------------------------------------------------------

  /** Whether cell's available ≥ need (need < 2^53). */
  private hasAvailable(cell: number, need: number): boolean {
    const hi = this.bal[cell * 4 + B_AVAIL_HI]!;
    if (hi < 0) return false;
    // NOTE: below 2^53 the sum is exact; a sum that rounds is at least 2^53 > need.
    return hi * LIMB + this.bal[cell * 4 + B_AVAIL_LO]! >= need;
  }

  /** Move a holder's balance of an asset and record the leg (owner, deltas, results). */
  private move(holder: number, asset: number, availDelta: number, frozenDelta: number): void {
    const cell = holder * 2 + asset;
    if (availDelta !== 0 && this.addToLimbs(cell * 4 + B_AVAIL_HI, availDelta) < 0) {
      throw new Error('engine floor: negative balance');
    }
    if (frozenDelta !== 0 && this.addToLimbs(cell * 4 + B_FROZEN_HI, frozenDelta) < 0) {
      throw new Error('engine floor: negative frozen balance');
    }
    const at = this.reserve(8);
    const log = this.log;
    log[at] = holder;
    log[at + 1] = asset;
    log[at + 2] = availDelta;
    log[at + 3] = frozenDelta;
    log[at + 4] = this.bal[cell * 4 + B_AVAIL_HI]!;
    log[at + 5] = this.bal[cell * 4 + B_AVAIL_LO]!;
    log[at + 6] = this.bal[cell * 4 + B_FROZEN_HI]!;
    log[at + 7] = this.bal[cell * 4 + B_FROZEN_LO]!;
  }

  /**
   * Add a delta (|delta| < 2^53) to the limb pair whose hi is at bal[at] and lo at bal[at + 1];
   * returns the new hi (negative when the balance went below zero). The sum with lo is exact,
   * and dividing by the power of two 2^32 is too, so the carry is exact.
   */
  private addToLimbs(at: number, delta: number): number {
    const bal = this.bal;
    let lo = bal[at + 1]! + delta;
    if (lo >= LIMB || lo < 0) {
      const carry = Math.floor(lo / LIMB);
      bal[at]! += carry;
      lo -= carry * LIMB;
    }
    bal[at + 1] = lo;
    return bal[at]!;
  }

  /** Start a balance event; its legs follow, and endBalance writes their count. */
  private beginBalance(business: number, orderId: number, dealId: number): number {
    const at = this.reserve(6);
    const log = this.log;
    log[at] = EV_BALANCE;
    log[at + 1] = ++this.eventSeq;
    log[at + 2] = business;
    log[at + 3] = orderId;
    log[at + 4] = dealId;
    return at;
  }

  private endBalance(at: number): void {
    this.log[at + 5] = (this.logLength - at - 6) / 8;
  }

  /** Take funds for a fill: from the order's frozen funds, or from available for a taker. */
  private spend(o: number, asset: number, amount: number): void {
    if (amount === 0) return;
    if (this.ord[o * ORDER_WIDTH + O_FUNDS_FROZEN] === 1) {
      this.ord[o * ORDER_WIDTH + O_FROZEN]! -= amount;
      this.move(this.ord[o * ORDER_WIDTH + O_USER]!, asset, 0, -amount);
    } else {
      this.move(this.ord[o * ORDER_WIDTH + O_USER]!, asset, -amount, 0);
    }
  }

  // --- orders -------------------------------------------------------------------------------

  private buyFreeze(lotsTicks: number): number {
    const value = checked(lotsTicks * this.valueP);
    const fee = checked(checked(lotsTicks * this.feeP) * this.maxRate);
    return checked(ceilDiv(value, this.valueQ) + ceilDiv(fee, this.feeQ));
  }

  /** What a resting buy may still pay from its frozen funds (lifecycle.ts remainingNeed). */
  private remainingNeed(o: number): number {
    if (this.ord[o * ORDER_WIDTH + O_SIDE] === 1) return this.ord[o * ORDER_WIDTH + O_LEFT]!;
    const lotsTicks = checked(
      this.ord[o * ORDER_WIDTH + O_LEFT]! * this.ord[o * ORDER_WIDTH + O_TICKS]!,
    );
    const money = checked(
      this.ord[o * ORDER_WIDTH + O_MONEY_UNITS]! + checked(lotsTicks * this.valueP),
    );
    const fee = checked(
      this.ord[o * ORDER_WIDTH + O_FEE_UNITS]! + checked(lotsTicks * this.feeP * this.maxRate),
    );
    return (
      ceilDiv(money, this.valueQ) +
      ceilDiv(fee, this.feeQ) -
      this.ord[o * ORDER_WIDTH + O_DEAL_MONEY]! -
      this.ord[o * ORDER_WIDTH + O_DEAL_FEE]!
    );
  }

  /** What buying `amount` from the asks would cost at the taker rate. */
  private marketBuyCost(amount: number): number {
    const levels = this.sideLevels[0]!;
    let rest = amount;
    let value = 0;
    let fee = 0;
    for (let i = this.sideCount[0]! - 1; i >= 0 && rest > 0; i--) {
      const lv = levels[i]!;
      const take = Math.min(this.lv[lv * LEVEL_WIDTH + L_TOTAL]!, rest);
      const lotsTicks = checked(take * this.lv[lv * LEVEL_WIDTH + L_TICKS]!);
      value = checked(value + checked(lotsTicks * this.valueP));
      fee = checked(fee + checked(lotsTicks * this.feeP * this.takerRate));
      rest -= take;
    }
    return ceilDiv(value, this.valueQ) + ceilDiv(fee, this.feeQ);
  }

  private newOrder(
    u: number,
    side: number,
    type: number,
    source: number,
    ticks: number,
    amount: number,
  ): number {
    const o = this.freeCount > 0 ? this.freeSlots[--this.freeCount]! : this.newSlot();
    const id = this.nextOrderId++;
    this.ord[o * ORDER_WIDTH + O_ID] = id;
    this.ord[o * ORDER_WIDTH + O_USER] = u;
    this.ord[o * ORDER_WIDTH + O_SIDE] = side;
    this.ord[o * ORDER_WIDTH + O_TYPE] = type;
    this.ord[o * ORDER_WIDTH + O_SOURCE] = source;
    this.ord[o * ORDER_WIDTH + O_TICKS] = ticks;
    this.ord[o * ORDER_WIDTH + O_AMOUNT] = amount;
    this.ord[o * ORDER_WIDTH + O_LEFT] = amount;
    this.ord[o * ORDER_WIDTH + O_DEAL_STOCK] = 0;
    this.ord[o * ORDER_WIDTH + O_DEAL_MONEY] = 0;
    this.ord[o * ORDER_WIDTH + O_DEAL_FEE] = 0;
    this.ord[o * ORDER_WIDTH + O_MONEY_UNITS] = 0;
    this.ord[o * ORDER_WIDTH + O_FEE_UNITS] = 0;
    this.ord[o * ORDER_WIDTH + O_FROZEN] = 0;
    this.ord[o * ORDER_WIDTH + O_FUNDS_FROZEN] = 0;
    this.ord[o * ORDER_WIDTH + O_CTIME] = this.time;
    this.ord[o * ORDER_WIDTH + O_MTIME] = this.time;
    this.ord[o * ORDER_WIDTH + O_FINISH] = NONE;
    this.ord[o * ORDER_WIDTH + O_LEVEL] = NONE;
    if (id >= this.slotOfId.length) {
      const bigger = new Int32Array(this.slotOfId.length * 2).fill(NONE);
      bigger.set(this.slotOfId);
      this.slotOfId = bigger;
    }
    this.slotOfId[id] = o;
    // The user's list of open orders, newest first.
    const head = this.userHead[u]!;
    this.ord[o * ORDER_WIDTH + O_USER_PREV] = NONE;
    this.ord[o * ORDER_WIDTH + O_USER_NEXT] = head;
    if (head !== NONE) this.ord[head * ORDER_WIDTH + O_USER_PREV] = o;
    this.userHead[u] = o;
    return o;
  }

  private newSlot(): number {
    if (this.usedSlots === this.capacity) {
      const size = this.capacity * 2;
      this.capacity = size;
      this.ord = grown(this.ord, size * ORDER_WIDTH);
      this.freeSlots = grown(this.freeSlots, size);
    }
    return this.usedSlots++;
  }

  private freezeForOrder(o: number, amount: number): void {
    this.ord[o * ORDER_WIDTH + O_FUNDS_FROZEN] = 1;
    if (amount === 0) return;
    const at = this.beginBalance(ORDER_FREEZE, this.ord[o * ORDER_WIDTH + O_ID]!, 0);
    this.move(
      this.ord[o * ORDER_WIDTH + O_USER]!,
      this.ord[o * ORDER_WIDTH + O_SIDE] === 1 ? 0 : 1,
      -amount,
      amount,
    );
    this.endBalance(at);
    this.ord[o * ORDER_WIDTH + O_FROZEN]! += amount;
  }

  private finishOrder(o: number, reason: number): void {
    const frozen = this.ord[o * ORDER_WIDTH + O_FROZEN]!;
    if (frozen !== 0) {
      const at = this.beginBalance(ORDER_RELEASE, this.ord[o * ORDER_WIDTH + O_ID]!, 0);
      this.move(
        this.ord[o * ORDER_WIDTH + O_USER]!,
        this.ord[o * ORDER_WIDTH + O_SIDE] === 1 ? 0 : 1,
        frozen,
        -frozen,
      );
      this.endBalance(at);
      this.ord[o * ORDER_WIDTH + O_FROZEN] = 0;
    }
    this.ord[o * ORDER_WIDTH + O_FINISH] = reason;
    this.ord[o * ORDER_WIDTH + O_MTIME] = this.time;
    this.slotOfId[this.ord[o * ORDER_WIDTH + O_ID]!] = NONE;
    const u = this.ord[o * ORDER_WIDTH + O_USER]!;
    const prev = this.ord[o * ORDER_WIDTH + O_USER_PREV]!;
    const next = this.ord[o * ORDER_WIDTH + O_USER_NEXT]!;
    if (prev === NONE) this.userHead[u] = next;
    else this.ord[prev * ORDER_WIDTH + O_USER_NEXT] = next;
    if (next !== NONE) this.ord[next * ORDER_WIDTH + O_USER_PREV] = prev;
    this.emitOrder(FINISH, o);
    // Its events may be read until the next command: free the slot then.
    if (this.retiredCount === this.retired.length)
      this.retired = grown(this.retired, this.retiredCount * 2);
    this.retired[this.retiredCount++] = o;
  }

  private releaseRetired(): void {
    for (let i = 0; i < this.retiredCount; i++) this.freeSlots[this.freeCount++] = this.retired[i]!;
    this.retiredCount = 0;
  }

  private emitOrder(type: number, o: number): void {
    const at = this.reserve(10);
    const log = this.log;
    log[at] = EV_ORDER;
    log[at + 1] = ++this.eventSeq;
    log[at + 2] = type;
    log[at + 3] = o;
    log[at + 4] = this.ord[o * ORDER_WIDTH + O_LEFT]!;
    log[at + 5] = this.ord[o * ORDER_WIDTH + O_DEAL_STOCK]!;
    log[at + 6] = this.ord[o * ORDER_WIDTH + O_DEAL_MONEY]!;
    log[at + 7] = this.ord[o * ORDER_WIDTH + O_DEAL_FEE]!;
    log[at + 8] = this.ord[o * ORDER_WIDTH + O_MTIME]!;
    log[at + 9] = this.ord[o * ORDER_WIDTH + O_FINISH]!;
  }

  private reserve(n: number): number {
    const at = this.logLength;
    if (at + n > this.log.length) this.log = grown(this.log, this.log.length * 2);
    this.logLength = at + n;
    return at;
  }

  // --- the book -----------------------------------------------------------------------------

  /** Put an order at the back of its price level, creating the level when new. */
  private rest(o: number): void {
    const s = this.ord[o * ORDER_WIDTH + O_SIDE] === 1 ? 0 : 1;
    const ticks = this.ord[o * ORDER_WIDTH + O_TICKS]!;
    const key = s === 0 ? -ticks : ticks;
    const levels = this.sideLevels[s]!;
    const n = this.sideCount[s]!;
    // Most new orders land at or near the best price (the end): try it before searching.
    let i = n;
    if (n > 0 && this.keyOf(s, levels[n - 1]!) > key) {
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.keyOf(s, levels[mid]!) <= key) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    }
    let lv: number;
    if (i > 0 && this.keyOf(s, levels[i - 1]!) === key) {
      lv = levels[i - 1]!;
    } else {
      lv = this.newLevel(ticks);
      let arr = levels;
      if (n === arr.length) {
        arr = grown(arr, n * 2);
        this.sideLevels[s] = arr;
      }
      arr.copyWithin(i + 1, i, n);
      arr[i] = lv;
      this.sideCount[s] = n + 1;
    }
    const tail = this.lv[lv * LEVEL_WIDTH + L_TAIL]!;
    this.ord[o * ORDER_WIDTH + O_PREV] = tail;
    this.ord[o * ORDER_WIDTH + O_NEXT] = NONE;
    if (tail === NONE) this.lv[lv * LEVEL_WIDTH + L_HEAD] = o;
    else this.ord[tail * ORDER_WIDTH + O_NEXT] = o;
    this.lv[lv * LEVEL_WIDTH + L_TAIL] = o;
    this.lv[lv * LEVEL_WIDTH + L_TOTAL]! += this.ord[o * ORDER_WIDTH + O_LEFT]!;
    this.ord[o * ORDER_WIDTH + O_LEVEL] = lv;
  }

  private keyOf(s: number, lv: number): number {
    return s === 0 ? -this.lv[lv * LEVEL_WIDTH + L_TICKS]! : this.lv[lv * LEVEL_WIDTH + L_TICKS]!;
  }

  private newLevel(ticks: number): number {
    let lv: number;
    if (this.levelFreeCount > 0) {
      lv = this.levelFree[--this.levelFreeCount]!;
    } else {
      if (this.levelsUsed === this.levelCapacity) {
        const size = this.levelCapacity * 2;
        this.levelCapacity = size;
        this.lv = grown(this.lv, size * LEVEL_WIDTH);
        this.levelFree = grown(this.levelFree, size);
      }
      lv = this.levelsUsed++;
    }
    this.lv[lv * LEVEL_WIDTH + L_TICKS] = ticks;
    this.lv[lv * LEVEL_WIDTH + L_HEAD] = NONE;
    this.lv[lv * LEVEL_WIDTH + L_TAIL] = NONE;
    this.lv[lv * LEVEL_WIDTH + L_TOTAL] = 0;
    return lv;
  }

  /** Take an order off its level; an emptied level leaves its side. */
  private unlinkFromLevel(o: number): void {
    const lv = this.ord[o * ORDER_WIDTH + O_LEVEL]!;
    const prev = this.ord[o * ORDER_WIDTH + O_PREV]!;
    const next = this.ord[o * ORDER_WIDTH + O_NEXT]!;
    if (prev === NONE) this.lv[lv * LEVEL_WIDTH + L_HEAD] = next;
    else this.ord[prev * ORDER_WIDTH + O_NEXT] = next;
    if (next === NONE) this.lv[lv * LEVEL_WIDTH + L_TAIL] = prev;
    else this.ord[next * ORDER_WIDTH + O_PREV] = prev;
    this.ord[o * ORDER_WIDTH + O_LEVEL] = NONE;
    this.lv[lv * LEVEL_WIDTH + L_TOTAL]! -= this.ord[o * ORDER_WIDTH + O_LEFT]!;
    if (this.lv[lv * LEVEL_WIDTH + L_HEAD] === NONE)
      this.dropLevel(this.ord[o * ORDER_WIDTH + O_SIDE] === 1 ? 0 : 1, lv);
  }

  private dropLevel(s: number, lv: number): void {
    const levels = this.sideLevels[s]!;
    const n = this.sideCount[s]!;
    let i = n - 1;
    if (levels[i] !== lv) {
      const key = this.keyOf(s, lv);
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.keyOf(s, levels[mid]!) < key) lo = mid + 1;
        else hi = mid;
      }
      if (levels[lo] !== lv) throw new Error('engine floor: level missing from its side');
      i = lo;
      levels.copyWithin(i, i + 1, n);
    }
    this.sideCount[s] = n - 1;
    this.levelFree[this.levelFreeCount++] = lv;
  }

  private checkNotCrossed(): void {
    const na = this.sideCount[0]!;
    const nb = this.sideCount[1]!;
    if (na === 0 || nb === 0) return;
    const ask = this.lv[this.sideLevels[0]![na - 1]! * LEVEL_WIDTH + L_TICKS]!;
    const bid = this.lv[this.sideLevels[1]![nb - 1]! * LEVEL_WIDTH + L_TICKS]!;
    if (bid >= ask) throw new Error('engine floor: crossed book');
  }

  // --- matching -----------------------------------------------------------------------------

  private matchTaker(t: number): number {
    const isBuy = this.ord[t * ORDER_WIDTH + O_SIDE] === 2;
    const s = isBuy ? 0 : 1;
    const isLimit = this.ord[t * ORDER_WIDTH + O_TYPE] === 1;
    const tTicks = this.ord[t * ORDER_WIDTH + O_TICKS]!;
    const tUser = this.ord[t * ORDER_WIDTH + O_USER]!;
    for (;;) {
      if (this.ord[t * ORDER_WIDTH + O_LEFT] === 0) return STOP_FILLED;
      const n = this.sideCount[s]!;
      if (n === 0) return STOP_NO_LIQUIDITY;
      const lv = this.sideLevels[s]![n - 1]!;
      const ticks = this.lv[lv * LEVEL_WIDTH + L_TICKS]!;
      if (isLimit && (isBuy ? ticks > tTicks : ticks < tTicks)) return STOP_PRICE;
      const maker = this.lv[lv * LEVEL_WIDTH + L_HEAD]!;
      if (this.ord[maker * ORDER_WIDTH + O_USER] === tUser) return STOP_SELF_TRADE;
      const amount = Math.min(
        this.ord[maker * ORDER_WIDTH + O_LEFT]!,
        this.ord[t * ORDER_WIDTH + O_LEFT]!,
      );
      this.settleFill(t, maker, ticks, amount);
      this.lv[lv * LEVEL_WIDTH + L_TOTAL]! -= amount;
      this.lastTicks = ticks;
      if (this.ord[maker * ORDER_WIDTH + O_LEFT] === 0) {
        this.unlinkFromLevel(maker);
        this.finishOrder(maker, 0);
      } else {
        this.emitOrder(UPDATE, maker);
      }
    }
  }

  /** One fill: the engine's fast path (settle.ts, fastmath.ts) in numbers, legs in order. */
  private settleFill(t: number, maker: number, ticks: number, amount: number): void {
    const takerBuys = this.ord[t * ORDER_WIDTH + O_SIDE] === 2;
    const buyer = takerBuys ? t : maker;
    const seller = takerBuys ? maker : t;
    const lotsTicks = checked(amount * ticks);
    const value = checked(lotsTicks * this.valueP);
    const perRate = checked(lotsTicks * this.feeP);
    const buyerFeeNum = checked(perRate * (takerBuys ? this.takerRate : this.makerRate));
    const sellerFeeNum = checked(perRate * (takerBuys ? this.makerRate : this.takerRate));
    const moneyUnitsBefore = this.ord[buyer * ORDER_WIDTH + O_MONEY_UNITS]!;
    const feeUnitsBefore = this.ord[buyer * ORDER_WIDTH + O_FEE_UNITS]!;
    const moneyUnits = checked(moneyUnitsBefore + value);
    const feeUnits = checked(feeUnitsBefore + buyerFeeNum);
    const gross = floorDiv(value, this.valueQ);
    const paidTotal = ceilDiv(moneyUnits, this.valueQ);
    const paid = paidTotal - ceilDiv(moneyUnitsBefore, this.valueQ);
    const buyerFeeTotal = ceilDiv(feeUnits, this.feeQ);
    const buyerFee = buyerFeeTotal - ceilDiv(feeUnitsBefore, this.feeQ);
    let sellerFee = ceilDiv(sellerFeeNum, this.feeQ);
    if (sellerFee > gross) sellerFee = gross;
    this.ord[buyer * ORDER_WIDTH + O_MONEY_UNITS] = moneyUnits;
    this.ord[buyer * ORDER_WIDTH + O_FEE_UNITS] = feeUnits;
    this.ord[buyer * ORDER_WIDTH + O_DEAL_MONEY] = paidTotal;
    this.ord[buyer * ORDER_WIDTH + O_DEAL_FEE] = buyerFeeTotal;

    const dealId = this.nextDealId++;
    const at = this.reserve(11);
    const log = this.log;
    log[at] = EV_DEAL;
    log[at + 1] = ++this.eventSeq;
    log[at + 2] = dealId;
    log[at + 3] = ticks;
    log[at + 4] = amount;
    log[at + 5] = gross;
    log[at + 6] = t;
    log[at + 7] = maker;
    log[at + 8] = takerBuys ? sellerFee : buyerFee;
    log[at + 9] = takerBuys ? buyerFee : sellerFee;
    log[at + 10] = this.ord[t * ORDER_WIDTH + O_SIDE]!;

    const b = this.beginBalance(TRADE, this.ord[t * ORDER_WIDTH + O_ID]!, dealId);
    this.spend(buyer, 1, paid + buyerFee);
    this.move(this.ord[buyer * ORDER_WIDTH + O_USER]!, 0, amount, 0);
    if (sellerFee !== 0) this.ord[seller * ORDER_WIDTH + O_DEAL_FEE]! += sellerFee;
    this.spend(seller, 0, amount);
    this.ord[seller * ORDER_WIDTH + O_DEAL_MONEY]! += gross;
    this.move(this.ord[seller * ORDER_WIDTH + O_USER]!, 1, gross - sellerFee, 0);
    const fees = buyerFee + sellerFee;
    if (fees > 0) this.move(this.feesHolder, 1, fees, 0);
    const remainder = paid - gross;
    if (remainder < 0) throw new Error('engine floor: negative rounding');
    if (remainder > 0) this.move(this.roundingHolder, 1, remainder, 0);
    this.endBalance(b);

    this.ord[t * ORDER_WIDTH + O_DEAL_STOCK]! += amount;
    this.ord[maker * ORDER_WIDTH + O_DEAL_STOCK]! += amount;
    this.ord[maker * ORDER_WIDTH + O_LEFT]! -= amount;
    this.ord[t * ORDER_WIDTH + O_LEFT]! -= amount;
    this.ord[t * ORDER_WIDTH + O_MTIME] = this.time;
    this.ord[maker * ORDER_WIDTH + O_MTIME] = this.time;
  }

  get lastPrice(): bigint {
    return BigInt(this.lastTicks) * this.tickSize;
  }

  // --- reading the log ----------------------------------------------------------------------

  /** The command's events as the engine's objects (valid until the next apply). */
  events(): EngineEvent[] {
    const out: EngineEvent[] = [];
    const log = this.log;
    let at = 0;
    while (at < this.logLength) {
      const kind = log[at]!;
      const seq = log[at + 1]!;
      if (kind === EV_ORDER) {
        const type = ORDER_EVENT_TYPES[log[at + 2]!]!;
        out.push({ seq, time: this.time, type, order: this.viewAt(at) });
        at += 10;
      } else if (kind === EV_DEAL) {
        const t = log[at + 6]!;
        const maker = log[at + 7]!;
        out.push({
          seq,
          time: this.time,
          type: 'deal',
          id: log[at + 2]!,
          market: this.marketName,
          price: BigInt(log[at + 3]!) * this.tickSize,
          amount: BigInt(log[at + 4]!),
          total: BigInt(log[at + 5]!),
          takerSide: log[at + 10]! as 1 | 2,
          makerOrderId: this.ord[maker * ORDER_WIDTH + O_ID]!,
          takerOrderId: this.ord[t * ORDER_WIDTH + O_ID]!,
          makerUserId: this.ord[maker * ORDER_WIDTH + O_USER]!,
          takerUserId: this.ord[t * ORDER_WIDTH + O_USER]!,
          makerFee: BigInt(log[at + 8]!),
          makerFeeAsset: this.assetName(1),
          takerFee: BigInt(log[at + 9]!),
          takerFeeAsset: this.assetName(1),
        });
        at += 11;
      } else {
        const count = log[at + 5]!;
        const legs: BalanceLeg[] = [];
        for (let k = 0; k < count; k++) legs.push(this.legAt(at + 6 + k * 8));
        out.push({
          seq,
          time: this.time,
          type: 'balance',
          business: BUSINESSES[log[at + 2]!]!,
          businessId: null,
          orderId: log[at + 3]!,
          dealId: log[at + 4]!,
          legs,
        });
        at += 6 + count * 8;
      }
    }
    return out;
  }

  private assetName(asset: number): string {
    return asset === 0 ? this.stock : this.money;
  }

  private legAt(at: number): BalanceLeg {
    const log = this.log;
    const holder = log[at]!;
    const big = (hi: number, lo: number) => BigInt(hi) * BigInt(LIMB) + BigInt(lo);
    const owner: Owner =
      holder === this.feesHolder ? 'fees' : holder === this.roundingHolder ? 'rounding' : holder;
    return {
      owner,
      account: typeof owner === 'number' ? 'trade' : 'main',
      asset: this.assetName(log[at + 1]!),
      availableDelta: BigInt(log[at + 2]!),
      frozenDelta: BigInt(log[at + 3]!),
      available: big(log[at + 4]!, log[at + 5]!),
      frozen: big(log[at + 6]!, log[at + 7]!),
    };
  }

  private viewAt(at: number): OrderView {
    const log = this.log;
    const o = log[at + 3]!;
    const finish = log[at + 9]!;
    const type = this.ord[o * ORDER_WIDTH + O_TYPE] as 1 | 2;
    return {
      id: this.ord[o * ORDER_WIDTH + O_ID]!,
      userId: this.ord[o * ORDER_WIDTH + O_USER]!,
      platform: this.ord[o * ORDER_WIDTH + O_SOURCE] === 0 ? 'web' : 'api',
      algorithm: 0,
      market: this.marketName,
      account: 0,
      side: this.ord[o * ORDER_WIDTH + O_SIDE] as 1 | 2,
      type,
      timeInForce: type === 1 ? 'GTC' : 'IOC',
      amount: BigInt(this.ord[o * ORDER_WIDTH + O_AMOUNT]!),
      total: 0n,
      price: BigInt(this.ord[o * ORDER_WIDTH + O_TICKS]!) * this.tickSize,
      stop_price: 0n,
      limit_price: 0n,
      left: BigInt(log[at + 4]!),
      deal_stock: BigInt(log[at + 5]!),
      deal_money: BigInt(log[at + 6]!),
      deal_fee: BigInt(log[at + 7]!),
      deal_fee_ltt: 0n,
      triggered: false,
      oco_id: 0,
      ctime: this.ord[o * ORDER_WIDTH + O_CTIME]!,
      mtime: log[at + 8]!,
      ftime: finish === NONE ? 0 : this.time,
      finish_reason: finish === NONE ? null : (finish as 0 | 1 | 2 | 3),
    };
  }
}
