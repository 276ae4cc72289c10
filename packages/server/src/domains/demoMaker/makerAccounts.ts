import type { Db } from '../../db/database.js';
import type { EngineHost } from '../../engineHost/engineHost.js';
import { usdValueOf } from './referencePrices.js';

/** The two system-owned accounts: one quotes the books, the other takes from them. */
export const makerEmails = ['market-maker@lattice.localhost', 'market-taker@lattice.localhost'];

/** Stands where a password hash would be: no password matches it, so nobody signs in. */
const noPassword = '!system-account';

/** Each account holds about this much of every asset, in 10^-8 dollars (10 million dollars). */
const holdingUsd = 10_000_000n * 10n ** 8n;

/** The ids of the demo liquidity accounts, created on first use. */
export async function makerAccounts(db: Db, now: number): Promise<[number, number]> {
  const ids: number[] = [];
  for (const email of makerEmails) {
    await db
      .insertInto('users')
      .values({
        email,
        password_hash: noPassword,
        nickname: null,
        country: null,
        email_verified_at: now,
        is_demo: 0,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
    const row = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    ids.push(Number(row.id));
  }
  return [ids[0]!, ids[1]!];
}

/**
 * Tops the account's trade balance of `asset` up to its holding when it fell below half of it:
 * a deposit and a transfer through the engine host, each once per top-up id.
 */
export async function topUp(
  host: EngineHost,
  userId: number,
  asset: string,
  decimals: number,
  topUpId: string,
): Promise<void> {
  const target = (holdingUsd * 10n ** BigInt(decimals)) / usdValueOf(asset);
  const balance = host.engine.balances(userId)[asset]?.trade;
  const held = (balance?.available ?? 0n) + (balance?.frozen ?? 0n);
  if (held * 2n >= target) return;
  const amount = target - held;
  const businessId = `demo-liquidity:${userId}:${asset}:${topUpId}`;
  await host.ensureUser(userId);
  const deposit = await host.submit({ type: 'balance.deposit', userId, asset, amount, businessId });
  if (!deposit.ok) return;
  await host.submit({
    type: 'balance.transfer',
    userId,
    asset,
    amount,
    from: 'main',
    to: 'trade',
    businessId: `${businessId}:trade`,
  });
}
