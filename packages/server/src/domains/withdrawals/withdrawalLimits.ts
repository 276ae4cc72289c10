import { amountToDecimal, withdrawalStatus } from '@lattice/contracts';
import { amountFromDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import type { EngineReader } from '../../engineHost/engineHost.js';
import { validationError } from '../../http/errors.js';
import type { ReferenceData } from '../../reference/reference.types.js';
import type { UserRow } from '../auth/users.repo.js';
import { valueInBtc } from '../wallet/valuation.js';

const dayMs = 24 * 3600_000;
const weekMs = 7 * dayMs;
/** USD is valued through USDT, whose last prices the markets carry. */
export const usdTicker = 'USDT';

/** Statuses whose funds went back to the user: they do not count against a limit. */
const releasedStatuses: readonly number[] = [
  withdrawalStatus.failed,
  withdrawalStatus.unsuccessful,
  withdrawalStatus.canceledByValidation,
];

/**
 * The withdrawal levels of SPEC.md §6 as API.md reads them, in whole units: with 2FA, 500 USD
 * per 24 h and 1 BTC per week in value; with 2FA and approved KYC, 100,000 USD per 24 h.
 * Without 2FA nothing can be withdrawn (the 2FA check refuses first).
 */
export function limitsOf(user: UserRow): { usdPerDay: bigint; btcPerWeek: bigint | null } {
  return user.kyc_status === 'verified'
    ? { usdPerDay: 100_000n, btcPerWeek: null }
    : { usdPerDay: 500n, btcPerWeek: 1n };
}

export interface LimitContext {
  db: Db;
  engine: EngineReader;
  reference: ReferenceData;
  now: number;
}

function decimalsIn(context: LimitContext, ticker: string): number | undefined {
  return context.reference.assets.find((candidate) => candidate.ticker === ticker)?.decimals;
}

/** `amount` of `ticker` in BTC minor units at the last prices (0 when unpriced). */
export function btcValueOf(context: LimitContext, ticker: string, amount: bigint): bigint {
  return valueInBtc(context.engine, ticker, amount, (asset) => decimalsIn(context, asset));
}

/** `amount` of `ticker` in USDT minor units at the last prices (0 when unpriced). */
export function usdValueOf(context: LimitContext, ticker: string, amount: bigint): bigint {
  if (ticker === usdTicker) return amount;
  const btcDecimals = decimalsIn(context, 'BTC') ?? 8;
  const price = context.engine.markets().some((market) => market.name === 'BTC_USDT')
    ? context.engine.lastPrice('BTC_USDT')
    : 0n;
  return (btcValueOf(context, ticker, amount) * price) / 10n ** BigInt(btcDecimals);
}

/** What a user's limits allow and what their withdrawals of the windows used, in minor units. */
export interface LimitUse {
  usdMax: bigint;
  usdUsed: bigint;
  /** Null when the level has no weekly limit. */
  btcMax: bigint | null;
  btcUsed: bigint;
}

/**
 * Values every withdrawal of the windows that did not give its funds back at the last prices.
 * NOTE: an asset no market has priced yet values at zero, as in the balance's BTC value.
 */
export async function limitUse(context: LimitContext, user: UserRow): Promise<LimitUse> {
  const limits = limitsOf(user);
  const usdDecimals = decimalsIn(context, usdTicker) ?? 6;
  const btcDecimals = decimalsIn(context, 'BTC') ?? 8;
  let usdUsed = 0n;
  let btcUsed = 0n;
  for (const row of await withdrawnSince(context.db, user.id, context.now - weekMs)) {
    btcUsed += btcValueOf(context, row.asset, row.amount);
    if (row.createdAt > context.now - dayMs) usdUsed += usdValueOf(context, row.asset, row.amount);
  }
  return {
    usdMax: limits.usdPerDay * 10n ** BigInt(usdDecimals),
    usdUsed,
    btcMax: limits.btcPerWeek === null ? null : limits.btcPerWeek * 10n ** BigInt(btcDecimals),
    btcUsed,
  };
}

/** Refuses a withdrawal of `amount` of `asset` that would take the user past a limit. */
export async function assertWithinLimits(
  context: LimitContext,
  user: UserRow,
  asset: string,
  amount: bigint,
): Promise<void> {
  const use = await limitUse(context, user);
  if (use.usdUsed + usdValueOf(context, asset, amount) > use.usdMax) {
    const perDay = amountToDecimal(limitsOf(user).usdPerDay, 0);
    throw validationError({ amount: [`Withdrawal limit exceeded: ${perDay} USD per 24 h`] });
  }
  if (use.btcMax !== null && use.btcUsed + btcValueOf(context, asset, amount) > use.btcMax) {
    throw validationError({ amount: ['Withdrawal limit exceeded: 1 BTC per week in value'] });
  }
}

/**
 * How much of `ticker` the limits still let the user withdraw, in its minor units; null when
 * no market prices it (the limits then do not bind it). Without 2FA, nothing.
 */
export function amountLeftOf(
  context: LimitContext,
  use: LimitUse,
  ticker: string,
  twoFactorEnabled: boolean,
): bigint | null {
  if (!twoFactorEnabled) return 0n;
  const decimals = decimalsIn(context, ticker) ?? 8;
  const unit = 10n ** BigInt(decimals);
  const positive = (value: bigint) => (value > 0n ? value : 0n);
  const bounds: bigint[] = [];
  const usdPerUnit = usdValueOf(context, ticker, unit);
  if (usdPerUnit > 0n) bounds.push((positive(use.usdMax - use.usdUsed) * unit) / usdPerUnit);
  if (use.btcMax !== null) {
    const btcPerUnit = btcValueOf(context, ticker, unit);
    if (btcPerUnit > 0n) bounds.push((positive(use.btcMax - use.btcUsed) * unit) / btcPerUnit);
  }
  if (bounds.length === 0) return null;
  return bounds.reduce((low, value) => (value < low ? value : low));
}

/** A user's withdrawals since `since` that took or may take funds. */
async function withdrawnSince(db: Db, userId: number, since: number) {
  const rows = await db
    .selectFrom('withdrawals')
    .select(['asset', 'amount', 'created_at'])
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .where('status', 'not in', [...releasedStatuses])
    .execute();
  return rows.map((row) => ({
    asset: row.asset,
    amount: amountFromDb(row.amount),
    createdAt: Number(row.created_at),
  }));
}
