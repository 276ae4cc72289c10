// Commands: everything that changes the engine's state. Amounts and prices are bigint minor
// units (a price is money minor units per one whole stock unit); time is Unix milliseconds.
import type {
  AccountKind,
  MarketRules,
  OrderSource,
  SelfTradePrevention,
  Side,
  TimeInForce,
  UserId,
} from './types.js';

interface CommandBase {
  /** Unix milliseconds, integer, from the host's clock. */
  time: number;
}

export interface AssetAddCommand extends CommandBase {
  type: 'asset.add';
  asset: string;
  decimals: number;
}

export interface MarketAddCommand extends CommandBase, MarketRules {
  type: 'market.add';
}

/**
 * A market's limits on one order. A serious exchange caps what one order may be worth (its
 * maximum notional) and how much it may buy or sell (its maximum quantity): an order at an
 * absurd price, or for an absurd amount at the lowest one, stays out of the book, where it would
 * take more than the engine keeps in its fast numbers (docs/decisions/order-value-cap.md). Each
 * limit given is set; one left out stays as it was; at least one must be given.
 */
export interface MarketSetLimitsCommand extends CommandBase {
  type: 'market.setLimits';
  market: string;
  /**
   * The most a limit, stop-limit or OCO order may be worth at its price (amount × price, in
   * money minor units); 0n for no cap.
   */
  orderValueMax?: bigint;
  /**
   * The largest amount of a limit, stop-limit, OCO or market order by amount (stock minor
   * units); 0n for no cap.
   */
  orderAmountMax?: bigint;
}

export interface UserAddCommand extends CommandBase {
  type: 'user.add';
  userId: UserId;
}

export interface UserSetCustomFeeCommand extends CommandBase {
  type: 'user.setCustomFee';
  userId: UserId;
  enabled: boolean;
}

/**
 * The exchange's limits on what one user may hold open. A serious exchange caps them (a book of
 * millions of one user's dust orders costs every other trader time and the operator memory).
 */
export interface LimitsSetCommand extends CommandBase {
  type: 'limits.set';
  /**
   * Open orders one user may have at once, over all markets, waiting stops and both legs of an
   * OCO included; 0 for no cap. An order that cannot rest (market, IOC, FOK) is never refused
   * for it, so a user at the cap can still trade out of a position.
   */
  openOrdersPerUserMax: number;
}

export interface BalanceDepositCommand extends CommandBase {
  type: 'balance.deposit';
  userId: UserId;
  asset: string;
  amount: bigint;
  businessId: string;
  /** Business name recorded on the balance event; `deposit` unless given (e.g. `reward`). */
  business?: string;
}

export interface BalanceWithdrawHoldCommand extends CommandBase {
  type: 'balance.withdrawHold';
  userId: UserId;
  asset: string;
  /** The whole amount taken from main, fee included. */
  amount: bigint;
  businessId: string;
}

export interface BalanceWithdrawCompleteCommand extends CommandBase {
  type: 'balance.withdrawComplete';
  /** The hold's business id. */
  businessId: string;
  /** Part of the held amount kept by the exchange (to `fees`); the rest leaves. */
  fee?: bigint;
}

export interface BalanceWithdrawReleaseCommand extends CommandBase {
  type: 'balance.withdrawRelease';
  businessId: string;
}

export interface BalanceTransferCommand extends CommandBase {
  type: 'balance.transfer';
  userId: UserId;
  asset: string;
  amount: bigint;
  from: AccountKind;
  to: AccountKind;
  businessId: string;
}

export interface BalanceFreezeCommand extends CommandBase {
  type: 'balance.freeze';
  userId: UserId;
  asset: string;
  account: AccountKind;
  amount: bigint;
  businessId: string;
  /** Free text naming the product (staking, voucher, loan), at most 31 characters. */
  purpose: string;
}

export interface BalanceUnfreezeCommand extends CommandBase {
  type: 'balance.unfreeze';
  businessId: string;
}

export interface BalanceSettleFreezeCommand extends CommandBase {
  type: 'balance.settleFreeze';
  businessId: string;
  /** Receives the frozen funds on main; may be the freezing user. */
  toUserId: UserId;
}

export interface OrderLimitCommand extends CommandBase {
  type: 'order.limit';
  userId: UserId;
  market: string;
  side: Side;
  price: bigint;
  amount: bigint;
  timeInForce: TimeInForce;
  source: OrderSource;
  /** When it meets a resting order of its own user as taker; `cancelNewest` when absent. */
  selfTradePrevention?: SelfTradePrevention;
}

export interface OrderMarketCommand extends CommandBase {
  type: 'order.market';
  userId: UserId;
  market: string;
  side: Side;
  /** Stock to buy or sell; exactly one of amount and total. */
  amount?: bigint;
  /** Buy only: money to spend, fee included. */
  total?: bigint;
  source: OrderSource;
  /** When it meets a resting order of its own user as taker; `cancelNewest` when absent. */
  selfTradePrevention?: SelfTradePrevention;
}

export interface OrderStopLimitCommand extends CommandBase {
  type: 'order.stopLimit';
  userId: UserId;
  market: string;
  side: Side;
  stopPrice: bigint;
  price: bigint;
  amount: bigint;
  source: OrderSource;
  /** When it meets a resting order of its own user as taker; `cancelNewest` when absent. */
  selfTradePrevention?: SelfTradePrevention;
}

export interface OrderOcoCommand extends CommandBase {
  type: 'order.oco';
  userId: UserId;
  market: string;
  side: Side;
  /** The limit leg's price. */
  price: bigint;
  /** The stop leg's trigger price. */
  stopPrice: bigint;
  /** The stop leg's limit price once triggered. */
  limitPrice: bigint;
  amount: bigint;
  source: OrderSource;
  /** When it meets a resting order of its own user as taker; `cancelNewest` when absent. */
  selfTradePrevention?: SelfTradePrevention;
}

export interface OrderCancelCommand extends CommandBase {
  type: 'order.cancel';
  userId: UserId;
  orderId: number;
}

export interface OrderCancelAllCommand extends CommandBase {
  type: 'order.cancelAll';
  userId: UserId;
  market?: string;
}

export interface OrderCancelAllByCoinCommand extends CommandBase {
  type: 'order.cancelAllByCoin';
  userId: UserId;
  asset: string;
}

export type Command =
  | AssetAddCommand
  | MarketAddCommand
  | MarketSetLimitsCommand
  | UserAddCommand
  | UserSetCustomFeeCommand
  | LimitsSetCommand
  | BalanceDepositCommand
  | BalanceWithdrawHoldCommand
  | BalanceWithdrawCompleteCommand
  | BalanceWithdrawReleaseCommand
  | BalanceTransferCommand
  | BalanceFreezeCommand
  | BalanceUnfreezeCommand
  | BalanceSettleFreezeCommand
  | OrderLimitCommand
  | OrderMarketCommand
  | OrderStopLimitCommand
  | OrderOcoCommand
  | OrderCancelCommand
  | OrderCancelAllCommand
  | OrderCancelAllByCoinCommand;

export type CommandType = Command['type'];
