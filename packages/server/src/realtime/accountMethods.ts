import { socketErrors } from '@lattice/contracts';
import type { Db } from '../db/database.js';
import { userForWsToken } from '../domains/auth/wsToken.js';
import type { MarketDirectory } from '../domains/orders/markets.js';
import { finishedOrdersPage } from '../domains/orders/orderHistory.repo.js';
import { presentOrder } from '../domains/orders/orders.present.js';
import { openOrdersPage, orderViewFromRow } from '../domains/orders/orders.repo.js';
import { userBalances } from '../domains/wallet/wallet.repo.js';
import type { Connection } from './connection.js';
import { type Method, privateMethod, publicMethod, success, userOf } from './methods.js';
import type { Params } from './params.js';
import { PrivateFeed, presentBalance } from './privateFeed.js';
import { RpcError } from './rpc.js';

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

/** Session methods and the private channels of protocol-ws.md §4 and §6. */
export function accountMethods(deps: AccountDeps): Record<string, Method> {
  const { db, markets, feed } = deps;

  /** Market names of `order.query`: one market, or every market with "all" or "". */
  const marketFilter = (params: Params): string | null => {
    const name = params.string(0, 40);
    return name === '' || name === 'all' ? null : params.market(0).market.name;
  };

  const assetsOf = (params: Params): string[] => {
    const known = deps.assetDecimals();
    const assets = params.strings();
    for (const asset of assets) {
      if (!known.has(asset)) throw new RpcError({ code: 1, message: `unknown asset ${asset}` });
    }
    return assets.length > 0 ? assets : [...known.keys()];
  };

  const balancesOf = async (userId: number, assets: string[], account: 'trade' | 'margin') => {
    const stored = await userBalances(db, userId);
    const known = deps.assetDecimals();
    const out: Record<string, Record<string, string>> = {};
    for (const asset of assets) {
      const pair = stored.get(asset)?.[account] ?? { available: 0n, frozen: 0n };
      out[asset] = presentBalance({ account, ...pair }, known.get(asset) ?? 8);
    }
    return out;
  };

  const subscribeKeys = (topics: PrivateFeed['orders'], connection: Connection, names: string[]) =>
    topics.replace(
      connection,
      names.map((name) => PrivateFeed.key(connection.userId ?? 0, name)),
    );

  return {
    'server.ping': publicMethod(() => 'pong'),
    'server.time': publicMethod(() => Math.floor(deps.now() / 1000)),
    'server.auth': publicMethod(async ({ connection, params }) => {
      params.arity(2);
      const token = params.string(0, 512);
      params.string(1, sourceLengthMax);
      const user = await userForWsToken(db, deps.tokenKey, token, deps.now());
      if (user === null) throw new RpcError(socketErrors.tokenInvalid);
      // Another user's private subscriptions do not carry over (protocol-ws.md §4).
      if (connection.userId !== null && connection.userId !== user.id) feed.clear(connection);
      connection.userId = user.id;
      return success;
    }),

    'order.query': privateMethod(async (context) => {
      const { params } = context;
      params.arity(1, 3);
      const market = marketFilter(params);
      const offset = params.integer(1, 0, Number.MAX_SAFE_INTEGER, 0);
      const limit = params.integer(2, 1, ordersPageMax, ordersPageMax);
      const page = await openOrdersPage(db, userOf(context), market, { offset, limit });
      const records = page.rows.flatMap((row) => {
        const info = markets.find(row.market);
        return info ? [presentOrder(orderViewFromRow(row), info)] : [];
      });
      return { offset, limit, total: page.total, records };
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
      const page = await finishedOrdersPage(
        db,
        userOf(context),
        {
          pair,
          ...(side === 0 ? {} : { side: side === 1 ? 'sell' : 'buy' }),
          ...(start === 0 ? {} : { from: start }),
          ...(end === 0 ? {} : { to: end }),
        },
        { offset, limit },
      );
      const records = page.rows.flatMap((row) => {
        const info = markets.find(row.market);
        return info ? [presentOrder(orderViewFromRow(row), info)] : [];
      });
      return { offset, limit, records };
    }),
    'order.subscribe': privateMethod(({ connection, params }) => {
      const names = params.markets().map((info) => info.market.name);
      subscribeKeys(feed.orders, connection, names);
      return success;
    }),
    'order.unsubscribe': privateMethod(({ connection, params }) => {
      params.arity(0);
      feed.orders.clear(connection);
      return success;
    }),

    'asset.query': privateMethod((context) =>
      balancesOf(userOf(context), assetsOf(context.params), 'trade'),
    ),
    'asset.subscribe': privateMethod(({ connection, params }) => {
      subscribeKeys(feed.assets, connection, assetsOf(params));
      return success;
    }),
    'asset.unsubscribe': privateMethod(({ connection, params }) => {
      params.arity(0);
      feed.assets.clear(connection);
      return success;
    }),

    'asset_margin.query': privateMethod((context) =>
      balancesOf(userOf(context), assetsOf(context.params), 'margin'),
    ),
    'asset_margin.subscribe': privateMethod(({ connection, params }) => {
      subscribeKeys(feed.marginAssets, connection, assetsOf(params));
      return success;
    }),
    'asset_margin.unsubscribe': privateMethod(({ connection, params }) => {
      params.arity(0);
      feed.marginAssets.clear(connection);
      return success;
    }),
  };
}
