import { socketCloseCodes, socketErrors } from '@lattice/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { RealtimeConfig } from '../config.js';
import type { Db } from '../db/database.js';
import type { CommittedDepth } from '../domains/marketData/committedDepth.js';
import type { MarketData } from '../domains/marketData/marketData.js';
import type { MarketDirectory } from '../domains/orders/markets.js';
import type { EngineHost } from '../engineHost/engineHost.js';
import { accountMethods } from './accountMethods.js';
import { Connection } from './connection.js';
import { DealsFeed } from './dealsFeed.js';
import { DepthFeed } from './depthFeed.js';
import { KlineFeed } from './klineFeed.js';
import { marketMethods } from './marketMethods.js';
import { FollowedBy, type Method } from './methods.js';
import { Params } from './params.js';
import { PrivateFeed } from './privateFeed.js';
import { PushBatch } from './pushBatch.js';
import { PushScheduler } from './pushScheduler.js';
import { parseRequest, RpcError } from './rpc.js';
import { TickerFeeds } from './tickerFeeds.js';

export interface HubDeps {
  db: Db;
  host: EngineHost;
  data: MarketData;
  depth: CommittedDepth;
  markets: MarketDirectory;
  tokenKey: string;
  limits: RealtimeConfig;
  logger: FastifyBaseLogger;
  now?: () => number;
}

export interface PushStats {
  /** Flushes that ran (each sends every update due at that moment). */
  flushes: number;
  /** Time spent in them, and in the longest one. */
  busyMs: number;
  longestMs: number;
  /** Connections written to, summed over flushes (one write each per flush). */
  socketWrites: number;
}

/** No frame for this long closes a connection (protocol-ws.md §9.1: 90 s). */
export const idleTimeoutMs = 90_000;
const idleSweepMs = 15_000;
/** How often full depth snapshots fall due and the 24 h windows move are checked. */
const periodicCheckMs = 10_000;

/**
 * The socket server's state: connections, the feeds, and the methods. Engine events and trade
 * and depth changes mark feeds dirty; one scheduled flush computes each update once and sends
 * the same encoded frame to every subscriber.
 */
export class Hub {
  private readonly connections = new Set<Connection>();
  private readonly byIp = new Map<string, number>();
  private readonly methods: Record<string, Method>;
  private readonly scheduler: PushScheduler;
  private readonly feeds: {
    depth: DepthFeed;
    deals: DealsFeed;
    kline: KlineFeed;
    tickers: TickerFeeds;
    private: PrivateFeed;
  };
  private readonly stops: (() => void)[] = [];
  private readonly now: () => number;
  private slowConsumersCut = 0;
  private readonly pushes: PushStats = { flushes: 0, busyMs: 0, longestMs: 0, socketWrites: 0 };

  constructor(private readonly deps: HubDeps) {
    this.now = deps.now ?? Date.now;
    const decimals = () =>
      new Map(deps.host.engine.assets().map((asset) => [asset.asset, asset.decimals]));
    this.feeds = {
      depth: new DepthFeed(deps.depth, this.now),
      deals: new DealsFeed(deps.data, deps.markets),
      kline: new KlineFeed(deps.data, deps.markets),
      tickers: new TickerFeeds(deps.data, deps.markets),
      private: new PrivateFeed(deps.markets, (asset) => decimals().get(asset) ?? 8),
    };
    this.methods = {
      ...marketMethods({ data: deps.data, ...this.feeds }),
      ...accountMethods({
        db: deps.db,
        tokenKey: deps.tokenKey,
        markets: deps.markets,
        feed: this.feeds.private,
        assetDecimals: decimals,
        now: this.now,
      }),
    };
    this.scheduler = new PushScheduler(() => this.flush(), deps.limits.pushIntervalMs, this.now);
    this.follow();
  }

  /** Whether one more connection from `ip` is allowed. */
  admits(ip: string): boolean {
    return (this.byIp.get(ip) ?? 0) < this.deps.limits.connectionsPerIpMax;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Connections closed since start because they did not read what they were sent. */
  get slowConsumersCutCount(): number {
    return this.slowConsumersCut;
  }

  /** How long pushing took since start: what fan-out costs, for operators and benchmarks. */
  get pushStats(): Readonly<PushStats> {
    return this.pushes;
  }

  /** Takes a new socket in: its frames, its close. */
  accept(socket: WebSocket, ip: string): Connection {
    const connection = new Connection(socket, ip, this.deps.limits, this.now(), (cut) => {
      this.slowConsumersCut += 1;
      this.deps.logger.warn({ connection: cut.id, ip: cut.ip }, 'slow socket consumer cut off');
    });
    this.connections.add(connection);
    this.byIp.set(ip, (this.byIp.get(ip) ?? 0) + 1);
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        connection.close(socketCloseCodes.unsupportedData, 'text frames only');
        return;
      }
      void this.handle(connection, data.toString());
    });
    socket.on('close', () => this.forget(connection));
    socket.on('error', () => connection.terminate());
    return connection;
  }

  /** Closes every connection and stops following the engine. */
  close(): void {
    this.scheduler.stop();
    for (const stop of this.stops) stop();
    for (const connection of this.connections) {
      connection.close(socketCloseCodes.goingAway, 'server shutting down');
    }
  }

  private async handle(connection: Connection, text: string): Promise<void> {
    if (!connection.admit(this.now())) {
      connection.close(socketCloseCodes.policyViolation, 'too many requests');
      return;
    }
    const request = parseRequest(text);
    if (request === null) {
      this.deps.logger.info({ connection: connection.id }, 'socket frame is not a request');
      connection.close(socketCloseCodes.unsupportedData, 'not a JSON-RPC request');
      return;
    }
    // Own entries only: `constructor` or `__proto__` must not find Object's.
    const method = Object.hasOwn(this.methods, request.method)
      ? this.methods[request.method]
      : undefined;
    if (method === undefined) return connection.fail(request.id, socketErrors.methodNotFound);
    if (method.private && connection.userId === null) {
      return connection.fail(request.id, socketErrors.requireAuthentication);
    }
    try {
      const params = new Params(request.params, this.deps.markets);
      const result = await method.handle({ connection, params });
      if (result instanceof FollowedBy) {
        connection.reply(request.id, result.result);
        result.after();
      } else {
        connection.reply(request.id, result);
      }
    } catch (error) {
      if (error instanceof RpcError) return connection.fail(request.id, error.error);
      this.deps.logger.error({ err: error, method: request.method }, 'socket method failed');
      connection.fail(request.id, socketErrors.internalError);
    }
  }

  private forget(connection: Connection): void {
    if (!this.connections.delete(connection)) return;
    const left = (this.byIp.get(connection.ip) ?? 1) - 1;
    if (left > 0) this.byIp.set(connection.ip, left);
    else this.byIp.delete(connection.ip);
    const { depth, deals, kline, tickers } = this.feeds;
    const channels = [depth, deals, kline].map((feed) => feed.topics);
    for (const topics of [...channels, tickers.today, tickers.state, tickers.price]) {
      topics.clear(connection);
    }
    this.feeds.private.clear(connection);
  }

  private follow(): void {
    const { depth, deals, kline, tickers } = this.feeds;
    this.stops.push(
      this.deps.depth.listen((markets) => {
        depth.marketsChanged(markets);
        this.scheduler.request();
      }),
      this.deps.data.listen((market, trades) => {
        deals.tradesAdded(market, trades);
        kline.tradesAdded(market);
        tickers.tradesAdded(market);
        this.scheduler.request();
      }),
      this.deps.host.bus.subscribe((events) => {
        this.feeds.private.take(events);
        if (this.feeds.private.pending) this.scheduler.request();
      }),
    );
    const sweep = setInterval(() => this.closeIdle(), idleSweepMs);
    const refresh = setInterval(() => {
      tickers.windowMoved();
      this.scheduler.request();
    }, periodicCheckMs);
    sweep.unref();
    refresh.unref();
    this.stops.push(
      () => clearInterval(sweep),
      () => clearInterval(refresh),
    );
  }

  /** Every feed's updates; each connection's frames of this flush leave in one write. */
  private flush(): void {
    const { depth, deals, kline, tickers } = this.feeds;
    const batch = new PushBatch();
    const started = performance.now();
    let written = 0;
    try {
      depth.flush(batch);
      deals.flush(batch);
      kline.flush(batch);
      tickers.flush(batch);
      this.feeds.private.flush();
    } finally {
      written = batch.send();
      const tookMs = performance.now() - started;
      this.pushes.flushes += 1;
      this.pushes.busyMs += tookMs;
      this.pushes.longestMs = Math.max(this.pushes.longestMs, tookMs);
      this.pushes.socketWrites += written;
    }
  }

  private closeIdle(): void {
    const oldest = this.now() - idleTimeoutMs;
    for (const connection of this.connections) {
      if (connection.lastSeenMs < oldest) connection.close(socketCloseCodes.goingAway, 'idle');
    }
  }
}
