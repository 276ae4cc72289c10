import type { AccountKind, BalancePair } from '@lattice/engine';
import { amountFromDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import { accountKindFrom } from '../../engineHost/projections.js';

/** A user's stored balances by asset and account (only those ever touched). */
export async function userBalances(
  db: Db,
  userId: number,
): Promise<Map<string, Partial<Record<AccountKind, BalancePair>>>> {
  const rows = await db
    .selectFrom('balances')
    .select(['asset', 'account', 'available', 'frozen'])
    .where('user_id', '=', userId)
    .execute();
  const byAsset = new Map<string, Partial<Record<AccountKind, BalancePair>>>();
  for (const row of rows) {
    const accounts = byAsset.get(row.asset) ?? {};
    accounts[accountKindFrom(row.account)] = {
      available: amountFromDb(row.available),
      frozen: amountFromDb(row.frozen),
    };
    byAsset.set(row.asset, accounts);
  }
  return byAsset;
}
