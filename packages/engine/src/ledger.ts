// Balances as double entry: every movement is a list of legs whose deltas sum to zero per asset.
import { InvariantViolation } from './errors.js';
import type { Order } from './order.js';
import type { AccountKind, BalanceLeg, Owner, UserId } from './types.js';

export const ACCOUNT_KINDS: readonly AccountKind[] = ['main', 'trade', 'margin'];

/** One owner's balance of one asset on one account; mutated in place, never replaced. */
export class Balance {
  available = 0n;
  frozen = 0n;
  /** The owner as events name it, and whether it may go below zero (copied: no extra hop). */
  readonly owner: Owner;
  readonly mayGoNegative: boolean;
  constructor(
    holder: Holder,
    readonly account: AccountKind,
    readonly asset: string,
  ) {
    this.owner = holder.owner;
    this.mayGoNegative = holder.mayGoNegative;
  }
}

/** The three accounts of one owner for one asset. Margin borrowing adds fields here later. */
export class AccountSet {
  readonly main: Balance;
  readonly trade: Balance;
  readonly margin: Balance;
  constructor(
    holder: Holder,
    readonly asset: string,
  ) {
    this.main = new Balance(holder, 'main', asset);
    this.trade = new Balance(holder, 'trade', asset);
    this.margin = new Balance(holder, 'margin', asset);
  }
}

/** A holder's account sets before its first: shared, never changed (a holder replaces it). */
const NO_SETS: readonly AccountSet[] = [];

/** An owner of balances: a user or a system account. */
export class Holder {
  /**
   * The account sets, in the order they were made (a user's balances are listed in it). A
   * holder has a few, so a scan finds one by name; adding one makes an array of exactly their
   * number. NOTE: every user is a Holder, so its size is the engine's size per user: a Map
   * here, and arrays by asset index beside it, took about 600 of the 1,400 bytes of heap a
   * trading user cost (docs/decisions/engine-users-memory.md).
   */
  private sets: readonly AccountSet[] = NO_SETS;
  /** Only the outside world may go below zero: it is the other side of deposits. */
  readonly mayGoNegative: boolean;
  constructor(readonly owner: Owner) {
    this.mayGoNegative = owner === 'external';
  }

  /** The account set of an asset, made with zero balances when the holder has none. */
  accounts(asset: string): AccountSet {
    return this.find(asset) ?? this.added(asset);
  }

  /** The account set of an asset, if the holder has one. */
  find(asset: string): AccountSet | undefined {
    const sets = this.sets;
    for (let i = 0; i < sets.length; i++) {
      if (sets[i]!.asset === asset) return sets[i];
    }
    return undefined;
  }

  /** Every account set, in the order they were made. */
  get accountSets(): readonly AccountSet[] {
    return this.sets;
  }

  balance(asset: string, account: AccountKind): Balance {
    return this.accounts(asset)[account];
  }

  /**
   * Forget every account set: for the columnar core's registry, whose balances live in its
   * table and are made here only for the commands that read them (columnar/holders.ts).
   */
  dropAccounts(): void {
    this.sets = NO_SETS;
  }

  private added(asset: string): AccountSet {
    const set = new AccountSet(this, asset);
    this.sets = [...this.sets, set];
    return set;
  }
}

/** A user: balances plus settings and the open orders (for cancel-all and queries). */
export class UserState extends Holder {
  customFee = false;
  /** Open orders, stops included, as an intrusive list (Order.userPrev/userNext). */
  private ordersHead: Order | null = null;
  openCount = 0;
  constructor(readonly userId: UserId) {
    super(userId);
  }

  addOpen(o: Order): void {
    o.userPrev = null;
    o.userNext = this.ordersHead;
    if (this.ordersHead !== null) this.ordersHead.userPrev = o;
    this.ordersHead = o;
    this.openCount++;
  }

  removeOpen(o: Order): void {
    if (o.userPrev === null) this.ordersHead = o.userNext;
    else o.userPrev.userNext = o.userNext;
    if (o.userNext !== null) o.userNext.userPrev = o.userPrev;
    o.userPrev = null;
    o.userNext = null;
    this.openCount--;
  }

  /** The open orders, newest first. */
  openOrders(): Order[] {
    const out: Order[] = [];
    for (let o = this.ordersHead; o !== null; o = o.userNext) out.push(o);
    return out;
  }
}

/** Something legs are recorded into: an array, or a LegBuffer on the hot path. */
export interface LegSink {
  push(leg: BalanceLeg): unknown;
}

/**
 * The legs of the movement being built, in a reused array: take() hands out an array of
 * exactly their number (pushing onto a fresh empty array would reserve room for 16).
 */
export class LegBuffer implements LegSink {
  private readonly legs: BalanceLeg[] = [];
  private count = 0;

  push(leg: BalanceLeg): void {
    this.legs[this.count++] = leg;
  }

  clear(): void {
    this.count = 0;
  }

  take(): BalanceLeg[] {
    const out = this.legs.slice(0, this.count);
    this.count = 0;
    return out;
  }
}

/** Apply a delta to a balance and return its leg; a negative result is a bug, never input. */
export function moveLeg(bal: Balance, availableDelta: bigint, frozenDelta: bigint): BalanceLeg {
  // NOTE: each bigint sum allocates; most legs move only one of the two.
  const available = availableDelta === 0n ? bal.available : bal.available + availableDelta;
  const frozen = frozenDelta === 0n ? bal.frozen : bal.frozen + frozenDelta;
  if ((available < 0n && !bal.mayGoNegative) || frozen < 0n) {
    throw new InvariantViolation(
      `negative balance: ${String(bal.owner)} ${bal.account} ${bal.asset} ` +
        `available ${available} frozen ${frozen}`,
    );
  }
  bal.available = available;
  bal.frozen = frozen;
  return {
    owner: bal.owner,
    account: bal.account,
    asset: bal.asset,
    availableDelta,
    frozenDelta,
    available,
    frozen,
  };
}

/** Apply a delta to a balance and record its leg. */
export function move(legs: LegSink, bal: Balance, availableDelta: bigint, frozenDelta: bigint) {
  legs.push(moveLeg(bal, availableDelta, frozenDelta));
}
