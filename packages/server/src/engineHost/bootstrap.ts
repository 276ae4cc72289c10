import type { Db } from '../db/database.js';
import { loadDemoUsers, loadReferenceData } from '../reference/reference.repo.js';
import type { EngineHost, HostCommand } from './engineHost.js';
import type { HostLogger } from './hostLogger.js';

/**
 * The most one limit, stop-limit or OCO order may be worth, in minor units of its market's money
 * (2.25 × 10^9 USDT, 2.25 × 10^7 BTC): far above any real order, and below what the engine's
 * fast core keeps exactly with the order's fee beside it (2^53), so that no order at an absurd
 * price can rest there and keep the engine on its slower core (docs/decisions/order-value-cap.md).
 * For a money of more than eight decimals, see scaledCap.
 */
export const ORDER_VALUE_MAX = 2n ** 51n;

/**
 * The largest amount of one order, in minor units of its market's stock: the most the engine's
 * fast core keeps exactly (90 million units of an asset of eight decimals). A bid for more at a
 * market's lowest price costs little where the stock is worth little (on CNB_USDT, 100 million
 * CNB at 0.000001 USDT is 100 USDT), and would keep the engine on its slower core while it
 * rested; it is refused instead (docs/decisions/order-value-cap.md). For a stock of more than
 * eight decimals, see scaledCap.
 */
export const ORDER_AMOUNT_MAX = 2n ** 53n - 1n;

/**
 * A cap of `cap` minor units for an asset of up to eight decimals; for one of more, as many whole
 * units as `cap` is at eight, so that an operator's asset of eighteen decimals is not held to a
 * sliver of one per order (such orders pass what the fast core keeps anyway).
 */
export function scaledCap(cap: bigint, decimals: number): bigint {
  return decimals <= 8 ? cap : cap * 10n ** BigInt(decimals - 8);
}

/**
 * Registers in the engine the assets and markets of the reference tables it does not know yet,
 * gives every market the caps on one order's value and amount (ORDER_VALUE_MAX,
 * ORDER_AMOUNT_MAX, scaled to the money's and the stock's decimals) where they differ, sets its cap on a user's open orders when
 * `openOrdersPerUserMax` is given and differs, and (with `fundDemoUsers`) credits the demo
 * accounts once: deposits to main, half of it moved to trade so they can trade at once. Every
 * step is idempotent, so it runs at each start.
 */
export async function bootstrapEngine(
  host: EngineHost,
  db: Db,
  options: { fundDemoUsers: boolean; logger: HostLogger; openOrdersPerUserMax?: number },
): Promise<void> {
  const reference = await loadReferenceData(db);
  const commands: HostCommand[] = [];
  const knownAssets = new Set(host.engine.assets().map((asset) => asset.asset));
  for (const asset of reference.assets) {
    if (!knownAssets.has(asset.ticker)) {
      commands.push({ type: 'asset.add', asset: asset.ticker, decimals: asset.decimals });
    }
  }
  const knownMarkets = new Map(host.engine.markets().map((market) => [market.name, market]));
  const decimals = new Map(reference.assets.map((asset) => [asset.ticker, asset.decimals]));
  for (const market of reference.markets) {
    const known = knownMarkets.get(market.name);
    const caps = {
      type: 'market.setLimits',
      market: market.name,
      orderValueMax: scaledCap(ORDER_VALUE_MAX, decimals.get(market.money) ?? 0),
      orderAmountMax: scaledCap(ORDER_AMOUNT_MAX, decimals.get(market.stock) ?? 0),
    } as const;
    if (known !== undefined) {
      const capped =
        known.orderValueMax === caps.orderValueMax && known.orderAmountMax === caps.orderAmountMax;
      if (!capped) commands.push(caps);
      continue;
    }
    commands.push({
      type: 'market.add',
      name: market.name,
      stock: market.stock,
      money: market.money,
      tickSize: market.tickSize,
      lotSize: market.lotSize,
      minAmount: market.minAmount,
      pricePrecision: market.pricePrecision,
      amountPrecision: market.amountPrecision,
      makerFeePpm: market.makerFeePpm,
      takerFeePpm: market.takerFeePpm,
    });
    commands.push(caps);
  }
  const cap = options.openOrdersPerUserMax;
  if (cap !== undefined && host.engine.limits().openOrdersPerUserMax !== cap) {
    commands.push({ type: 'limits.set', openOrdersPerUserMax: cap });
  }
  if (options.fundDemoUsers) commands.push(...(await demoFunding(host, db, reference)));
  const results = await Promise.all(commands.map((command) => host.submit(command)));
  results.forEach((result, index) => {
    if (!result.ok) {
      options.logger.error(
        { command: commands[index]?.type, code: result.code, reason: result.message },
        'reference data refused by the engine',
      );
    }
  });
}

async function demoFunding(
  host: EngineHost,
  db: Db,
  reference: Awaited<ReturnType<typeof loadReferenceData>>,
): Promise<HostCommand[]> {
  const commands: HostCommand[] = [];
  for (const user of await loadDemoUsers(db, reference)) {
    await host.ensureUser(user.id);
    const prefix = `demo-funding:${user.id}:`;
    const done = await db
      .selectFrom('balance_history')
      .select('business_id')
      .where('user_id', '=', user.id)
      .where('business_id', 'like', `${prefix}%`)
      .execute();
    const credited = new Set(done.map((row) => row.business_id));
    for (const { ticker, amount } of user.funding) {
      const businessId = `${prefix}${ticker}`;
      if (credited.has(businessId)) continue;
      commands.push(
        { type: 'balance.deposit', userId: user.id, asset: ticker, amount, businessId },
        {
          type: 'balance.transfer',
          userId: user.id,
          asset: ticker,
          amount: amount / 2n,
          from: 'main',
          to: 'trade',
          businessId: `${businessId}:trade`,
        },
      );
    }
  }
  return commands;
}
