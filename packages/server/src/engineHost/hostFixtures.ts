import type { ApplyResult, OrderView } from '@lattice/engine';
import type { Db, SqlDialect } from '../db/database.js';
import { EngineHost, type EngineHostOptions, type HostCommand } from './engineHost.js';
import { silentLogger } from './hostLogger.js';
import { HostStore } from './hostStore.js';

/** BTC has 8 decimals, USDT 6; BTC_USDT ticks at 0.01 USDT and trades in 0.00001 BTC lots. */
export const fixtureSetup: readonly HostCommand[] = [
  { type: 'asset.add', asset: 'BTC', decimals: 8 },
  { type: 'asset.add', asset: 'USDT', decimals: 6 },
  {
    type: 'market.add',
    name: 'BTC_USDT',
    stock: 'BTC',
    money: 'USDT',
    tickSize: 10_000n,
    lotSize: 1_000n,
    minAmount: 1_000n,
    pricePrecision: 2,
    amountPrecision: 5,
    makerFeePpm: 1_000,
    takerFeePpm: 2_000,
  },
];

/** 1 BTC and 100,000 USDT in minor units. */
export const oneBtc = 100_000_000n;
export const oneUsdt = 1_000_000n;

/** A user known to the engine with `btc` and `usdt` on their trade account. */
export function fundedUserCommands(userId: number, btc: bigint, usdt: bigint): HostCommand[] {
  const commands: HostCommand[] = [{ type: 'user.add', userId }];
  for (const [asset, amount] of [
    ['BTC', btc],
    ['USDT', usdt],
  ] as const) {
    const businessId = `fixture:${userId}:${asset}`;
    commands.push(
      { type: 'balance.deposit', userId, asset, amount, businessId },
      {
        type: 'balance.transfer',
        userId,
        asset,
        amount,
        from: 'main',
        to: 'trade',
        businessId: `${businessId}:transfer`,
      },
    );
  }
  return commands;
}

/** A limit order on the fixture market: price in whole USDT cents, amount in BTC lots. */
export function limitOrder(
  userId: number,
  side: 1 | 2,
  priceCents: number,
  lots: number,
): HostCommand {
  return {
    type: 'order.limit',
    userId,
    market: 'BTC_USDT',
    side,
    price: BigInt(priceCents) * 10_000n,
    amount: BigInt(lots) * 1_000n,
    timeInForce: 'GTC',
    source: 'web',
  };
}

/** Opens a host on a test database with quiet defaults. */
export function openHost(
  db: Db,
  dialect: SqlDialect,
  options: Partial<EngineHostOptions> = {},
): Promise<EngineHost> {
  return EngineHost.open({
    store: new HostStore(db, dialect),
    logger: silentLogger,
    reconcileEveryMs: 0,
    ...options,
  });
}

/** Submits in order and requires every command to be accepted. */
export async function submitAll(host: EngineHost, commands: readonly HostCommand[]): Promise<void> {
  for (const command of commands) {
    const result = await host.submit(command);
    if (!result.ok) throw new Error(`${command.type} refused: ${result.code} ${result.message}`);
  }
}

/** The order a command placed. */
export function placedOrder(result: ApplyResult): OrderView {
  if (!result.ok || result.result.kind !== 'order') {
    throw new Error(`expected a placed order, got ${JSON.stringify(result, bigintText)}`);
  }
  return result.result.order;
}

function bigintText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
