import { socketErrors } from '@lattice/contracts';
import type { Db } from '../db/database.js';
import type { OrdersTable } from '../db/tables/engineHost.js';
import { userForWsToken } from '../domains/auth/wsToken.js';
import type { MarketDirectory } from '../domains/orders/markets.js';
import { finishedOrdersPage } from '../domains/orders/orderHistory.repo.js';
import { presentOrder } from '../domains/orders/orders.present.js';
import { openOrdersPage, orderViewFromRow } from '../domains/orders/orders.repo.js';
import { userBalances } from '../domains/wallet/wallet.repo.js';
import { assetHistoryPage } from './assetHistory.js';
import type { Connection } from './connection.js';
import { type Method, privateMethod, publicMethod, success, userOf } from './methods.js';
import type { Params } from './params.js';
import { PrivateFeed, presentBalance } from './privateFeed.js';
import { RpcError } from './rpc.js';
import type { Topics } from './topics.js';

export interface AccountDeps {
  db: Db;
  /** The key `systemParams` signs socket tokens with. */
  tokenKey: string;
  markets: MarketDirectory;
  feed: PrivateFeed;
  /** Decimals of each asset the engine knows. */
  assetDecimals: () => ReadonlyMap<string, number>;
  now: () => number;
}

const ordersPageMax = 100;
const historyPageMax = 101;
const sourceLengthMax = 31;
const businessLengthMax = 32;

/** Session methods and the private channels of protocol-ws.md §4 and §6. */
export function accountMethods(deps: AccountDeps): Record<string, Method> {
  return { ...sessionMethods(deps), ...orderMethods(deps), ...assetMethods(deps) };
}

function sessionMethods(deps: AccountDeps): Record<string, Method> {
  return {
    'server.ping': publicMethod(() => 'pong'),
    'server.time': publicMethod(() => Math.floor(deps.now() / 1000)),
    'server.auth': publicMethod(async ({ connection, params }) => {
      params.arity(2);
      const token = params.string(0, 512);
      params.string(1, sourceLengthMax);
      const user = await userForWsToken(deps.db, deps.tokenKey, token, deps.now());
      if (user === null) throw new RpcError(socketErrors.tokenInvalid);
      // Another user's private subscriptions do not carry over (protocol-ws.md §4).
      if (connection.userId !== null && connection.userId !== user.id) {
        deps.feed.clear(connection);
      }
      connection.userId = user.id;
      return success;
    }),
  };
}

/** Subscribes a connection to its own user's keys on a private channel. */
function subscribeOwn(topics: Topics, connection: Connection, names: readonly string[]): void {
  topics.replace(
    connection,
    names.map((name) => PrivateFeed.key(connection.userId ?? 0, name)),
  );
}

function unsubscribe(topics: Topics): Method {
  return privateMethod(({ connection, params }) => {
    params.arity(0);
    topics.clear(connection);
    return success;
  });
}

function orderMethods(deps: AccountDeps): Record<string, Method> {
  const present = (rows: readonly OrdersTable[]) =>
    rows.flatMap((row) => {
      const info = deps.markets.find(row.market);
      return info ? [presentOrder(orderViewFromRow(row), info)] : [];
    });
  return {
    'order.query': privateMethod(async (context) => {
      const { params } = context;
      params.arity(1, 3);
      // One market, or every market with "all" or "".
      const name = params.string(0, 40);
      const market = name === '' || name === 'all' ? null : params.market(0).market.name;
      const offset = params.integer(1, 0, Number.MAX_SAFE_INTEGER, 0);
      const limit = params.integer(2, 1, ordersPageMax, ordersPageMax);
      const page = await openOrdersPage(deps.db, userOf(context), market, { offset, limit });
      return { offset, limit, total: page.total, records: present(page.rows) };
    }),
    'order.history': privateMethod(async (context) => {
      const { params } = context;
      params.arity(5, 6);
      const pair = params.market(0).market.name;
      const start = params.integer(1, 0, Number.MAX_SAFE_INTEGER);
      const end = params.integer(2, 0, Number.MAX_SAFE_INTEGER);
      const offset = params.integer(3, 0, Number.MAX_SAFE_INTEGER);
      const limit = params.integer(4, 1, historyPageMax);
      const side = params.integer(5, 0, 2, 0);
      const filter = {
        pair,
        ...(side === 0 ? {} : { side: side === 1 ? ('sell' as const) : ('buy' as const) }),
        ...(start === 0 ? {} : { from: start }),
        ...(end === 0 ? {} : { to: end }),
      };
      const page = await finishedOrdersPage(deps.db, userOf(context), filter, { offset, limit });
      return { offset, limit, records: present(page.rows) };
    }),
    'order.subscribe': privateMethod(({ connection, params }) => {
      const names = params.markets().map((info) => info.market.name);
      subscribeOwn(deps.feed.orders, connection, names);
      return success;
    }),
    'order.unsubscribe': unsubscribe(deps.feed.orders),
  };
}

function assetMethods(deps: AccountDeps): Record<string, Method> {
  /** The assets named, or every asset when none is. */
  const assetsOf = (params: Params): string[] => {
    const known = deps.assetDecimals();
    const assets = params.strings();
    for (const asset of assets) {
      if (!known.has(asset)) throw new RpcError({ code: 1, message: `unknown asset ${asset}` });
    }
    return assets.length > 0 ? assets : [...known.keys()];
  };
  const balancesOf = async (userId: number, assets: string[], account: 'trade' | 'margin') => {
    const stored = await userBalances(deps.db, userId);
    const known = deps.assetDecimals();
    const out: Record<string, Record<string, string>> = {};
    for (const asset of assets) {
      const pair = stored.get(asset)?.[account] ?? { available: 0n, frozen: 0n };
      out[asset] = presentBalance({ account, ...pair }, known.get(asset) ?? 8);
    }
    return out;
  };
  const channel = (account: 'trade' | 'margin', topics: Topics): Record<string, Method> => {
    const name = account === 'trade' ? 'asset' : 'asset_margin';
    return {
      [`${name}.query`]: privateMethod((context) =>
        balancesOf(userOf(context), assetsOf(context.params), account),
      ),
      [`${name}.subscribe`]: privateMethod(({ connection, params }) => {
        subscribeOwn(topics, connection, assetsOf(params));
        return success;
      }),
      [`${name}.unsubscribe`]: unsubscribe(topics),
    };
  };
  return {
    ...channel('trade', deps.feed.assets),
    ...channel('margin', deps.feed.marginAssets),
    'asset.history': assetHistory(deps),
  };
}

/**
 * `asset.history [asset, business, start, end, offset, limit]`: "" for asset or business means
 * any; times are Unix seconds, 0 unbounded, the range [start, end).
 */
function assetHistory(deps: AccountDeps): Method {
  return privateMethod(async (context) => {
    const { params } = context;
    params.arity(6);
    const asset = params.string(0, 16);
    if (asset !== '' && !deps.assetDecimals().has(asset)) {
      throw new RpcError({ code: 1, message: `unknown asset ${asset}` });
    }
    const business = params.string(1, businessLengthMax);
    const start = params.integer(2, 0, Number.MAX_SAFE_INTEGER);
    const end = params.integer(3, 0, Number.MAX_SAFE_INTEGER);
    const offset = params.integer(4, 0, Number.MAX_SAFE_INTEGER);
    const limit = params.integer(5, 1, historyPageMax);
    const decimals = deps.assetDecimals();
    const records = await assetHistoryPage(
      deps.db,
      {
        userId: userOf(context),
        asset: asset === '' ? null : asset,
        business: business === '' ? null : business,
        fromMs: start === 0 ? null : start * 1000,
        toMs: end === 0 ? null : end * 1000,
        offset,
        limit,
      },
      (name) => decimals.get(name) ?? 8,
    );
    return { offset, limit, records };
  });
}
