// Run-time configuration commands: assets, markets, users and their fee setting, limits.
import { reject } from './errors.js';
import { Market } from './market.js';
import type { State } from './state.js';
import type {
  ApplyResult,
  AssetAddCommand,
  CommandResult,
  LimitsSetCommand,
  MarketAddCommand,
  MarketSetLimitsCommand,
  Rejection,
  UserAddCommand,
  UserSetCustomFeeCommand,
} from './types.js';
import { AMOUNT_MAX, isUserId, knownMarket } from './validate.js';

const NO_RESULT: CommandResult = { kind: 'none' };
const ASSET_NAME = /^[A-Z0-9]{1,16}$/;
const DECIMALS_MAX = 18;
/** The largest cap on a user's open orders: their count is kept as a 32-bit integer. */
const OPEN_ORDERS_CAP_MAX = 1_000_000_000;

function isSmallInt(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

export function addAsset(s: State, cmd: AssetAddCommand): ApplyResult {
  if (typeof cmd.asset !== 'string' || !ASSET_NAME.test(cmd.asset)) {
    return reject('invalid_command', 'Asset names are 1 to 16 capital letters or digits', 'asset');
  }
  if (!isSmallInt(cmd.decimals, DECIMALS_MAX)) {
    return reject('invalid_decimals', `Decimals must be 0 to ${DECIMALS_MAX}`, 'decimals');
  }
  if (s.assets.has(cmd.asset)) return reject('asset_exists', 'Asset already exists', 'asset');
  s.assets.set(cmd.asset, {
    name: cmd.asset,
    index: s.assets.size,
    decimals: cmd.decimals,
    deposited: 0n,
    withdrawn: 0n,
  });
  return { ok: true, events: s.events, result: NO_RESULT };
}

function isPositive(value: unknown): value is bigint {
  return typeof value === 'bigint' && value > 0n && value <= AMOUNT_MAX;
}

/** Every rule a market must satisfy; the first broken one is returned. */
function checkMarket(s: State, cmd: MarketAddCommand): Rejection | null {
  const stock = typeof cmd.stock === 'string' ? s.assets.get(cmd.stock) : undefined;
  const money = typeof cmd.money === 'string' ? s.assets.get(cmd.money) : undefined;
  if (stock === undefined) return reject('asset_not_found', 'Stock asset not found', 'stock');
  if (money === undefined) return reject('asset_not_found', 'Money asset not found', 'money');
  if (stock === money) return reject('invalid_market', 'Stock and money must differ', 'money');
  if (cmd.name !== `${stock.name}_${money.name}`) {
    return reject('invalid_market', 'Market name must be STOCK_MONEY', 'name');
  }
  if (s.markets.has(cmd.name)) return reject('market_exists', 'Market already exists', 'name');
  if (!isSmallInt(cmd.pricePrecision, money.decimals)) {
    return reject('invalid_market', 'Price precision exceeds the money decimals', 'pricePrecision');
  }
  if (!isSmallInt(cmd.amountPrecision, stock.decimals)) {
    return reject(
      'invalid_market',
      'Amount precision exceeds the stock decimals',
      'amountPrecision',
    );
  }
  const priceStep = 10n ** BigInt(money.decimals - cmd.pricePrecision);
  const amountStep = 10n ** BigInt(stock.decimals - cmd.amountPrecision);
  if (!isPositive(cmd.tickSize) || cmd.tickSize % priceStep !== 0n) {
    return reject(
      'invalid_market',
      'Tick size must be a positive multiple of the price step',
      'tickSize',
    );
  }
  if (!isPositive(cmd.lotSize) || cmd.lotSize % amountStep !== 0n) {
    return reject(
      'invalid_market',
      'Lot size must be a positive multiple of the amount step',
      'lotSize',
    );
  }
  if (typeof cmd.minAmount !== 'bigint' || cmd.minAmount < 0n || cmd.minAmount > AMOUNT_MAX) {
    return reject('invalid_market', 'Minimum amount must be zero or more', 'minAmount');
  }
  // Fee rates must stay below 100% (upstream: 0 ≤ rate < 1).
  if (!isSmallInt(cmd.makerFeePpm, 999_999)) {
    return reject('invalid_market', 'Maker fee must be 0 to 999999 ppm', 'makerFeePpm');
  }
  if (!isSmallInt(cmd.takerFeePpm, 999_999)) {
    return reject('invalid_market', 'Taker fee must be 0 to 999999 ppm', 'takerFeePpm');
  }
  return null;
}

export function addMarket(s: State, cmd: MarketAddCommand): ApplyResult {
  const bad = checkMarket(s, cmd);
  if (bad !== null) return bad;
  s.markets.set(cmd.name, new Market(cmd, s.assets.get(cmd.stock)!, s.assets.get(cmd.money)!));
  return { ok: true, events: s.events, result: NO_RESULT };
}

/** Set a market's limits on one order; they apply to orders placed from now on. */
export function setMarketLimits(s: State, cmd: MarketSetLimitsCommand): ApplyResult {
  const m = knownMarket(s, cmd.market);
  if (!(m instanceof Market)) return m;
  const { orderValueMax, orderAmountMax } = cmd;
  if (orderValueMax === undefined && orderAmountMax === undefined) {
    return reject('invalid_command', 'Give orderValueMax, orderAmountMax or both', 'orderValueMax');
  }
  if (orderValueMax !== undefined && !isCap(orderValueMax)) {
    return reject(
      'invalid_command',
      'The cap on an order value must be an amount of money minor units, 0 for none',
      'orderValueMax',
    );
  }
  if (orderAmountMax !== undefined && !isCap(orderAmountMax)) {
    return reject(
      'invalid_command',
      'The cap on an order amount must be an amount of stock minor units, 0 for none',
      'orderAmountMax',
    );
  }
  if (orderValueMax !== undefined) m.orderValueMax = orderValueMax;
  if (orderAmountMax !== undefined) m.orderAmountMax = orderAmountMax;
  return { ok: true, events: s.events, result: NO_RESULT };
}

/** A cap of market.setLimits: an amount of minor units, 0 for none. */
function isCap(value: unknown): value is bigint {
  return typeof value === 'bigint' && value >= 0n && value <= AMOUNT_MAX;
}

/** Make a user known; adding a known user again is a no-op. */
export function addUser(s: State, cmd: UserAddCommand): ApplyResult {
  if (!isUserId(cmd.userId))
    return reject('invalid_user', 'User id must be a positive integer', 'userId');
  s.user(cmd.userId);
  return { ok: true, events: s.events, result: NO_RESULT };
}

export function setCustomFee(s: State, cmd: UserSetCustomFeeCommand): ApplyResult {
  if (!isUserId(cmd.userId))
    return reject('invalid_user', 'User id must be a positive integer', 'userId');
  if (typeof cmd.enabled !== 'boolean') {
    return reject('invalid_command', 'Enabled must be true or false', 'enabled');
  }
  s.user(cmd.userId).customFee = cmd.enabled;
  return { ok: true, events: s.events, result: NO_RESULT };
}

/** Set the exchange's limits; the cap applies to orders placed from now on, not to open ones. */
export function setLimits(s: State, cmd: LimitsSetCommand): ApplyResult {
  if (!isSmallInt(cmd.openOrdersPerUserMax, OPEN_ORDERS_CAP_MAX)) {
    return reject(
      'invalid_command',
      `The cap on open orders must be a whole number from 0 (no cap) to ${OPEN_ORDERS_CAP_MAX}`,
      'openOrdersPerUserMax',
    );
  }
  s.openOrdersPerUserMax = cmd.openOrdersPerUserMax;
  return { ok: true, events: s.events, result: NO_RESULT };
}
