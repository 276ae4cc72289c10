import { amountFromDecimal } from '@lattice/contracts';
import { amountToDb } from '../db/amount.js';
import type { Db } from '../db/database.js';
import {
  type AssetSeed,
  assetNetworkSeeds,
  assetSeeds,
  makerFeePpmDefault,
  marketSeeds,
  networkSeeds,
  takerFeePpmDefault,
} from './catalogue.js';
import { type DemoUserSeed, demoUserSeeds } from './demoUsers.js';

/** Hashes a password for storage (Argon2id in the product). */
export type PasswordHasher = (password: string) => Promise<string>;

/**
 * Writes the reference data of `catalogue.ts` (and, with `demoUsers`, the demo accounts),
 * adding only rows that are missing: it runs at every start, leaves rows an operator changed
 * alone, and adds what a newer version brings. Balances are not written here.
 */
export async function seedReferenceData(
  db: Db,
  options: { demoUsers: boolean; hashPassword: PasswordHasher; nowMs?: number },
): Promise<void> {
  const now = options.nowMs ?? Date.now();
  const decimalsOf = new Map(assetSeeds.map((asset) => [asset.ticker, asset.decimals]));
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('assets')
      .values(assetSeeds.map((asset, index) => assetRow(asset, index, now)))
      .onConflict((oc) => oc.column('ticker').doNothing())
      .execute();
    await trx
      .insertInto('networks')
      .values(
        networkSeeds.map((network, index) => ({
          code: network.code,
          name: network.name,
          native_ticker: network.nativeTicker,
          uses_memo: network.usesMemo ? 1 : 0,
          confirmations: network.confirmations,
          sort_order: (index + 1) * 10,
          created_at: now,
        })),
      )
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
    await trx
      .insertInto('asset_networks')
      .values(
        assetNetworkSeeds.map((row, index) => {
          const decimals = requireDecimals(decimalsOf, row.asset);
          return {
            asset_ticker: row.asset,
            network_code: row.network,
            contract_address: row.contract ?? null,
            withdraw_fee: amountToDb(amountFromDecimal(row.withdrawFee, decimals)),
            withdraw_min: amountToDb(amountFromDecimal(row.withdrawMin, decimals)),
            sort_order: (index + 1) * 10,
          };
        }),
      )
      .onConflict((oc) => oc.columns(['asset_ticker', 'network_code']).doNothing())
      .execute();
    await trx
      .insertInto('markets')
      .values(marketSeeds.map((market, index) => marketRow(market, index, decimalsOf, now)))
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  });
  if (options.demoUsers) await seedDemoUsers(db, demoUserSeeds, options.hashPassword, now);
}

function assetRow(asset: AssetSeed, index: number, now: number) {
  return {
    ticker: asset.ticker,
    name: asset.name,
    decimals: asset.decimals,
    is_fiat: asset.kind === 'fiat' ? 1 : 0,
    is_stable: asset.kind === 'stable' ? 1 : 0,
    sort_order: (index + 1) * 10,
    deposit_enabled: 1,
    withdraw_enabled: 1,
    created_at: now,
  };
}

function marketRow(
  market: (typeof marketSeeds)[number],
  index: number,
  decimalsOf: ReadonlyMap<string, number>,
  now: number,
) {
  const stockDecimals = requireDecimals(decimalsOf, market.stock);
  const moneyDecimals = requireDecimals(decimalsOf, market.money);
  return {
    name: `${market.stock}_${market.money}`,
    stock: market.stock,
    money: market.money,
    tick_size: amountToDb(amountFromDecimal(market.tick, moneyDecimals)),
    lot_size: amountToDb(amountFromDecimal(market.lot, stockDecimals)),
    min_amount: amountToDb(amountFromDecimal(market.min, stockDecimals)),
    price_precision: fractionDigits(market.tick),
    amount_precision: fractionDigits(market.lot),
    maker_fee_ppm: makerFeePpmDefault,
    taker_fee_ppm: takerFeePpmDefault,
    margin_enabled: market.margin ? 1 : 0,
    enabled: 1,
    sort_order: (index + 1) * 10,
    created_at: now,
  };
}

async function seedDemoUsers(
  db: Db,
  seeds: readonly DemoUserSeed[],
  hashPassword: PasswordHasher,
  now: number,
): Promise<void> {
  const existing = await db
    .selectFrom('users')
    .select('email')
    .where(
      'email',
      'in',
      seeds.map((seed) => seed.email),
    )
    .execute();
  const present = new Set(existing.map((row) => row.email));
  for (const seed of seeds.filter((candidate) => !present.has(candidate.email))) {
    // Hashing is slow on purpose; it happens once, outside any transaction.
    const passwordHash = await hashPassword(seed.password);
    await db
      .insertInto('users')
      .values({
        email: seed.email,
        password_hash: passwordHash,
        nickname: seed.nickname,
        country: null,
        email_verified_at: now,
        is_demo: 1,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
  }
}

function requireDecimals(decimalsOf: ReadonlyMap<string, number>, ticker: string): number {
  const decimals = decimalsOf.get(ticker);
  if (decimals === undefined) throw new Error(`reference data names an unknown asset: ${ticker}`);
  return decimals;
}

function fractionDigits(decimal: string): number {
  return decimal.split('.')[1]?.length ?? 0;
}
