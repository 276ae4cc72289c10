import type { Db } from '../../db/database.js';

/** A user's favorite markets, oldest first. */
export async function favoriteMarkets(db: Db, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('favorite_markets')
    .select('market')
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('market')
    .execute();
  return rows.map((row) => row.market);
}

/** Adds a favorite; adding it again changes nothing. */
export async function addFavorite(db: Db, userId: number, market: string, now: number) {
  await db
    .insertInto('favorite_markets')
    .values({ user_id: userId, market, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'market']).doNothing())
    .execute();
}

export async function removeFavorite(db: Db, userId: number, market: string): Promise<void> {
  await db
    .deleteFrom('favorite_markets')
    .where('user_id', '=', userId)
    .where('market', '=', market)
    .execute();
}
