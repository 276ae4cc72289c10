import { amountFromDecimal } from '@lattice/contracts';
import { amountFromDb } from '../db/amount.js';
import type { Db } from '../db/database.js';
import { defaultPair, lttPair, platformTicker } from './catalogue.js';
import { demoUserSeeds } from './demoUsers.js';
import type { DemoUser, ReferenceData } from './reference.types.js';

/** Reads assets, networks and markets as seeded (and as an operator may have changed them). */
export async function loadReferenceData(db: Db): Promise<ReferenceData> {
  const [assetRows, networkRows, assetNetworkRows, marketRows] = await Promise.all([
    db.selectFrom('assets').selectAll().orderBy('sort_order').orderBy('ticker').execute(),
    db.selectFrom('networks').selectAll().orderBy('sort_order').orderBy('code').execute(),
    db
      .selectFrom('asset_networks')
      .selectAll()
      .orderBy('asset_ticker')
      .orderBy('sort_order')
      .execute(),
    db.selectFrom('markets').selectAll().orderBy('sort_order').orderBy('name').execute(),
  ]);
  const assets = assetRows.map((row) => ({
    ticker: row.ticker,
    name: row.name,
    decimals: row.decimals,
    isFiat: row.is_fiat === 1,
    isStable: row.is_stable === 1,
    sortOrder: row.sort_order,
    depositEnabled: row.deposit_enabled === 1,
    withdrawEnabled: row.withdraw_enabled === 1,
  }));
  return {
    assets,
    networks: networkRows.map((row) => ({
      code: row.code,
      name: row.name,
      nativeTicker: row.native_ticker,
      usesMemo: row.uses_memo === 1,
      confirmations: row.confirmations,
      sortOrder: row.sort_order,
    })),
    assetNetworks: assetNetworkRows.map((row) => ({
      assetTicker: row.asset_ticker,
      networkCode: row.network_code,
      contractAddress: row.contract_address,
      withdrawFee: amountFromDb(row.withdraw_fee),
      withdrawMin: amountFromDb(row.withdraw_min),
      sortOrder: row.sort_order,
    })),
    markets: marketRows.map((row) => ({
      name: row.name,
      stock: row.stock,
      money: row.money,
      tickSize: amountFromDb(row.tick_size),
      lotSize: amountFromDb(row.lot_size),
      minAmount: amountFromDb(row.min_amount),
      pricePrecision: row.price_precision,
      amountPrecision: row.amount_precision,
      makerFeePpm: row.maker_fee_ppm,
      takerFeePpm: row.taker_fee_ppm,
      marginEnabled: row.margin_enabled === 1,
      enabled: row.enabled === 1,
      sortOrder: row.sort_order,
    })),
    defaultPair,
    lttPair,
    platformTicker,
    fiatTickers: assets.filter((asset) => asset.isFiat).map((asset) => asset.ticker),
    stableTickers: assets.filter((asset) => asset.isStable).map((asset) => asset.ticker),
  };
}

/**
 * The demo accounts present in the database, with what each is to be credited at first start
 * (in minor units). Empty when they were not created (`DEV_TOOLS` off).
 */
export async function loadDemoUsers(db: Db, reference: ReferenceData): Promise<DemoUser[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('is_demo', '=', 1)
    .orderBy('id')
    .execute();
  const decimalsOf = new Map(reference.assets.map((asset) => [asset.ticker, asset.decimals]));
  return rows.flatMap((row) => {
    const seed = demoUserSeeds.find((candidate) => candidate.email === row.email);
    if (!seed) return [];
    const funding = Object.entries(seed.funding).flatMap(([ticker, amount]) => {
      const decimals = decimalsOf.get(ticker);
      return decimals === undefined
        ? []
        : [{ ticker, amount: amountFromDecimal(amount, decimals) }];
    });
    return [{ id: row.id, email: row.email, funding }];
  });
}
