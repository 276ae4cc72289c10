// Balances as double entry: every movement is a list of legs whose deltas sum to zero per asset.
import { InvariantViolation } from './errors.js';
import type { Order } from './order.js';
import type { AccountKind, BalanceLeg, Owner, UserId } from './types.js';

export const ACCOUNT_KINDS: readonly AccountKind[] = ['main', 'trade', 'margin'];

/** One owner's balance of one asset on one account; mutated in place, never replaced. */
export class Balance {
  available = 0n;
  frozen = 0n;
  constructor(
    readonly holder: Holder,
    readonly account: AccountKind,
    readonly asset: string,
  ) {}
}

/** The three accounts of one owner for one asset. Margin borrowing adds fields here later. */
export class AccountSet {
  readonly main: Balance;
  readonly trade: Balance;
  readonly margin: Balance;
  constructor(holder: Holder, asset: string) {
    this.main = new Balance(holder, 'main', asset);
    this.trade = new Balance(holder, 'trade', asset);
    this.margin = new Balance(holder, 'margin', asset);
  }
}

/** An owner of balances: a user or a system account. */
export class Holder {
  readonly assets = new Map<string, AccountSet>();
  /** Only the outside world may go below zero: it is the other side of deposits. */
  readonly mayGoNegative: boolean;
  constructor(readonly owner: Owner) {
    this.mayGoNegative = owner === 'external';
  }

  accounts(asset: string): AccountSet {
    let set = this.assets.get(asset);
    if (set === undefined) {
      set = new AccountSet(this, asset);
      this.assets.set(asset, set);
    }
    return set;
  }

  balance(asset: string, account: AccountKind): Balance {
    return this.accounts(asset)[account];
  }
}

/** A user: balances plus settings and the open orders (for cancel-all and queries). */
export class UserState extends Holder {
  customFee = false;
  /** Open orders by id, stops included. */
  readonly openOrders = new Map<number, Order>();
  constructor(readonly userId: UserId) {
    super(userId);
  }
}

/** Apply a delta to a balance and record the leg; a negative result is a bug, never input. */
export function move(
  legs: BalanceLeg[],
  bal: Balance,
  availableDelta: bigint,
  frozenDelta: bigint,
) {
  const available = bal.available + availableDelta;
  const frozen = bal.frozen + frozenDelta;
  if ((available < 0n && !bal.holder.mayGoNegative) || frozen < 0n) {
    throw new InvariantViolation(
      `negative balance: ${String(bal.holder.owner)} ${bal.account} ${bal.asset} ` +
        `available ${available} frozen ${frozen}`,
    );
  }
  bal.available = available;
  bal.frozen = frozen;
  legs.push({
    owner: bal.holder.owner,
    account: bal.account,
    asset: bal.asset,
    availableDelta,
    frozenDelta,
    available,
    frozen,
  });
}
