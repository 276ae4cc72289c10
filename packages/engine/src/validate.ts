// Field checks shared by the command handlers. Commands arrive from the host already typed,
// but the engine trusts nothing: a wrong type is a rejection, never an exception.
import { reject } from './errors.js';
import type { UserState } from './ledger.js';
import type { Market } from './market.js';
import type { State } from './state.js';
import type { AccountKind, Rejection, SelfTradePrevention } from './types.js';

/** No amount, price or balance may exceed this (far above any real supply). */
export const AMOUNT_MAX = 10n ** 36n;
export const BUSINESS_ID_LENGTH_MAX = 128;
export const NAME_LENGTH_MAX = 31;

export function isUserId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/**
 * A known user (one that was added, credited or given a setting), or a rejection. Callers
 * tell them apart with instanceof, which keeps each call site monomorphic.
 */
export function knownUser(s: State, userId: unknown): UserState | Rejection {
  if (!isUserId(userId)) {
    return reject('invalid_user', 'User id must be a positive integer', 'userId');
  }
  return s.users.get(userId) ?? reject('user_not_found', 'User not found', 'userId');
}

export function knownMarket(s: State, name: unknown): Market | Rejection {
  const market = typeof name === 'string' ? s.markets.get(name) : undefined;
  return market ?? reject('market_not_found', 'Market not found', 'market');
}

/** A positive amount of minor units, or a rejection naming the field. */
export function checkPositive(value: unknown, field: string): Rejection | null {
  if (typeof value !== 'bigint') {
    return reject('invalid_amount', 'Must be an integer amount', field);
  }
  if (value <= 0n) return reject('invalid_amount', 'Must be greater than zero', field);
  if (value > AMOUNT_MAX) return reject('amount_too_large', 'Amount is too large', field);
  return null;
}

/** An order amount in the market's stock: positive, within precision, on a lot, at least min. */
export function checkAmount(m: Market, value: unknown, field = 'amount'): Rejection | null {
  const bad = checkPositive(value, field);
  if (bad !== null) return bad;
  const amount = value as bigint;
  // The lot is a multiple of the precision step (market.add checks it): one remainder
  // suffices for a good amount, a second one names the fault of a bad one.
  if (!m.onLot(amount)) {
    return amount % m.amountStep !== 0n
      ? reject('amount_precision', 'Too many decimals in amount', field)
      : reject('amount_off_lot', 'Amount is not a whole lot', field);
  }
  if (amount < m.minAmount) return reject('amount_too_small', 'Amount is below the minimum', field);
  return null;
}

/** A price in the market's money: positive, within precision, on a tick, in range. */
export function checkPrice(m: Market, value: unknown, field = 'price'): Rejection | null {
  if (typeof value !== 'bigint') return reject('invalid_price', 'Must be an integer price', field);
  if (value <= 0n) return reject('invalid_price', 'Must be greater than zero', field);
  if (!m.onTick(value)) {
    return value % m.priceStep !== 0n
      ? reject('price_precision', 'Too many decimals in price', field)
      : reject('price_off_tick', 'Price is not on a tick', field);
  }
  if (value > m.priceMax) return reject('price_too_large', 'Price is too large', field);
  return null;
}

export function checkSide(value: unknown): Rejection | null {
  return value === 1 || value === 2
    ? null
    : reject('invalid_command', 'Side must be 1 (sell) or 2 (buy)', 'side');
}

export function checkSource(value: unknown): Rejection | null {
  return value === 'web' || value === 'api'
    ? null
    : reject('invalid_command', "Source must be 'web' or 'api'", 'source');
}

/**
 * An order of `amount` at `price` against its market's cap on one order's value
 * (market.setLimits): worth more than it, it is refused.
 */
export function checkOrderValue(m: Market, amount: bigint, price: bigint): Rejection | null {
  const max = m.orderValueMax;
  if (max === 0n || amount * price <= max * m.scale) return null;
  return reject('order_value_too_large', 'Order value is too large', 'amount');
}

/**
 * An order's amount against its market's cap on one order's amount (market.setLimits): more
 * than it, it is refused.
 */
export function checkOrderAmount(m: Market, amount: bigint): Rejection | null {
  const max = m.orderAmountMax;
  if (max === 0n || amount <= max) return null;
  return reject('order_amount_too_large', 'Order amount is too large', 'amount');
}

/**
 * The self-trade prevention modes, at their codes: the columnar core keeps an order's mode as
 * its index here (columnar/orderCodes.ts STP_*).
 */
export const SELF_TRADE_MODES: readonly SelfTradePrevention[] = [
  'cancelNewest',
  'cancelOldest',
  'cancelBoth',
];

/** An order command's selfTradePrevention as its code (absent: cancelNewest), -1 if unknown. */
export function selfTradeCode(value: unknown): number {
  return value === undefined ? 0 : SELF_TRADE_MODES.indexOf(value as SelfTradePrevention);
}

export function checkSelfTrade(value: unknown): Rejection | null {
  return selfTradeCode(value) >= 0
    ? null
    : reject(
        'invalid_command',
        "Self-trade prevention must be 'cancelNewest', 'cancelOldest' or 'cancelBoth'",
        'selfTradePrevention',
      );
}

export function isAccountKind(value: unknown): value is AccountKind {
  return value === 'main' || value === 'trade' || value === 'margin';
}

export function checkBusinessId(value: unknown): Rejection | null {
  return typeof value === 'string' && value.length > 0 && value.length <= BUSINESS_ID_LENGTH_MAX
    ? null
    : reject('invalid_business_id', 'Business id must be a non-empty string', 'businessId');
}

/** A short free-text name (business or purpose): 1..31 characters. */
export function isShortName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= NAME_LENGTH_MAX;
}

export function knownAsset(s: State, asset: unknown): Rejection | null {
  return typeof asset === 'string' && s.assets.has(asset)
    ? null
    : reject('asset_not_found', 'Asset not found', 'asset');
}
