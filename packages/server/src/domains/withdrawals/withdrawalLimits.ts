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
const usdTicker = 'USDT';

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

/**
 * Refuses a withdrawal of `amount` of `asset` that would take the user's withdrawals past a
 * limit, valuing every withdrawal of the window (failed ones excluded) at the last prices.
 * NOTE: an asset no market has priced yet values at zero, as in the balance's BTC value.
 */
export async function assertWithinLimits(
  context: LimitContext,
  user: UserRow,
  asset: string,
  amount: bigint,
): Promise<void> {
  const limits = limitsOf(user);
  const decimalsOf = (ticker: string) =>
    context.reference.assets.find((candidate) => candidate.ticker === ticker)?.decimals;
  const btcDecimals = decimalsOf('BTC') ?? 8;
  const usdDecimals = decimalsOf(usdTicker) ?? 6;
  const recent = await withdrawnSince(context.db, user.id, context.now - weekMs);
  const inBtc = (ticker: string, value: bigint) =>
    valueInBtc(context.engine, ticker, value, decimalsOf);
  const inUsd = (ticker: string, value: bigint) =>
    ticker === usdTicker ? value : usdFromBtc(context.engine, inBtc(ticker, value), btcDecimals);
  let usdDay = inUsd(asset, amount);
  let btcWeek = inBtc(asset, amount);
  for (const row of recent) {
    btcWeek += inBtc(row.asset, row.amount);
    if (row.createdAt > context.now - dayMs) usdDay += inUsd(row.asset, row.amount);
  }
  const usdMax = limits.usdPerDay * 10n ** BigInt(usdDecimals);
  if (usdDay > usdMax) {
    throw validationError({
      amount: [`Withdrawal limit exceeded: ${amountToDecimal(limits.usdPerDay, 0)} USD per 24 h`],
    });
  }
  if (limits.btcPerWeek !== null && btcWeek > limits.btcPerWeek * 10n ** BigInt(btcDecimals)) {
    throw validationError({ amount: ['Withdrawal limit exceeded: 1 BTC per week in value'] });
  }
}

function usdFromBtc(engine: EngineReader, btcValue: bigint, btcDecimals: number): bigint {
  const price = engine.markets().some((market) => market.name === 'BTC_USDT')
    ? engine.lastPrice('BTC_USDT')
    : 0n;
  return (btcValue * price) / 10n ** BigInt(btcDecimals);
}

/** A user's withdrawals since `since` that took or may take funds (not failed). */
async function withdrawnSince(db: Db, userId: number, since: number) {
  const rows = await db
    .selectFrom('withdrawals')
    .select(['asset', 'amount', 'created_at'])
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .where('status', '<>', withdrawalStatus.failed)
    .execute();
  return rows.map((row) => ({
    asset: row.asset,
    amount: amountFromDb(row.amount),
    createdAt: Number(row.created_at),
  }));
}
