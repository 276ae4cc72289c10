import type { MarketView, OrderView } from '@lattice/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import type { EngineHost, HostCommand } from '../../engineHost/engineHost.js';
import { HostRefusal } from '../../engineHost/errors.js';
import type { MarketDirectory, MarketInfo } from '../orders/markets.js';
import { makerAccounts, topUp } from './makerAccounts.js';
import { amountWorth, referencePrice } from './referencePrices.js';

export interface DemoMakerOptions {
  db: Db;
  host: EngineHost;
  markets: MarketDirectory;
  logger: Pick<FastifyBaseLogger, 'debug' | 'error'>;
  /** Markets looked after most often (the trade screens open on the first). */
  busyMarkets: readonly string[];
  /** Milliseconds between two visits of a busy market, and of any other. */
  busyEveryMs: number;
  quietEveryMs: number;
  /** A number in [0, 1); tests pass a seeded one. */
  random?: () => number;
  now?: () => number;
}

/** Levels kept on each side of a book. */
const levels = 8;
/** New orders per side per visit at most, once a side has some (a full side at first). */
const placedPerVisitMax = 2;
const cancelledPerVisitMax = 3;
/** Prices wander at most this far from the reference, in thousandths. */
const bandPerMille = 200n;

/**
 * Demo liquidity: two system accounts keep every market with a two-sided book around a price
 * that wanders near a reference, and now and then one takes from the other's book so trades
 * print. Everything goes through the engine host like a user's orders, a few commands per
 * visit, so the journal grows slowly.
 */
export class DemoMaker {
  private readonly mids = new Map<string, bigint>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly visits = new Set<Promise<void>>();
  private readonly random: () => number;
  private stopped = false;

  private constructor(
    private readonly options: DemoMakerOptions,
    private readonly quoter: number,
    private readonly taker: number,
  ) {
    this.random = options.random ?? Math.random;
  }

  /** Creates the accounts (once) and returns a maker that does nothing until `start`. */
  static async open(options: DemoMakerOptions): Promise<DemoMaker> {
    const now = options.now ?? Date.now;
    const [quoter, taker] = await makerAccounts(options.db, now());
    await options.host.ensureUser(quoter);
    await options.host.ensureUser(taker);
    return new DemoMaker(options, quoter, taker);
  }

  /** Visits every market on its own timer. */
  start(): void {
    const { busyMarkets, busyEveryMs, quietEveryMs } = this.options;
    for (const market of this.options.host.engine.markets()) {
      const every = busyMarkets.includes(market.name) ? busyEveryMs : quietEveryMs;
      // Spread the first visits so the markets do not all move at once.
      const first = setTimeout(
        () => {
          this.track(this.visit(market.name));
          const timer = setInterval(() => this.track(this.visit(market.name)), every);
          timer.unref();
          this.timers.push(timer);
        },
        Math.floor(this.random() * every),
      );
      first.unref();
      this.timers.push(first);
    }
  }

  /** Stops the timers and waits for the visits under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.allSettled([...this.visits]);
  }

  /** One visit of a market: move its price, keep its book, maybe trade. */
  async visit(name: string): Promise<void> {
    const info = this.options.markets.find(name);
    if (this.stopped || info === undefined) return;
    try {
      await this.fund(info);
      const mid = this.walk(info);
      await this.keepBook(info, mid);
      if (this.random() < 0.6) await this.trade(info);
    } catch (error) {
      // A busy or halted host refuses; the next visit tries again.
      if (!(error instanceof HostRefusal)) throw error;
      this.options.logger.debug({ market: name, reason: error.message }, 'demo visit skipped');
    }
  }

  private track(visit: Promise<void>): void {
    const tracked = visit.catch((error: unknown) =>
      this.options.logger.error({ err: error }, 'demo liquidity failed'),
    );
    this.visits.add(tracked);
    void tracked.finally(() => this.visits.delete(tracked));
  }

  private async fund(info: MarketInfo): Promise<void> {
    const topUpId = String((this.options.now ?? Date.now)());
    for (const userId of [this.quoter, this.taker]) {
      await topUp(this.options.host, userId, info.market.stock, info.stockDecimals, topUpId);
      await topUp(this.options.host, userId, info.market.money, info.moneyDecimals, topUpId);
    }
  }

  /** The market's centre after one random step, kept within the band around the reference. */
  private walk(info: MarketInfo): bigint {
    const { market } = info;
    const reference = referencePrice(market, info.moneyDecimals);
    const last = this.options.host.engine.lastPrice(market.name);
    let mid = this.mids.get(market.name) ?? (inBand(last, reference) ? last : reference);
    const step = maxBig(market.tickSize, mid / 5000n);
    mid += BigInt(Math.floor(this.random() * 5) - 2) * step;
    const low = reference - (reference * bandPerMille) / 1000n;
    const high = reference + (reference * bandPerMille) / 1000n;
    mid = onTick(market, mid < low ? low : mid > high ? high : mid);
    this.mids.set(market.name, mid);
    return mid;
  }

  /** Cancels quotes on the wrong side or too far, and adds quotes where levels are missing. */
  private async keepBook(info: MarketInfo, mid: bigint): Promise<void> {
    const { market } = info;
    const gap = maxBig(market.tickSize, onTick(market, (mid * 5n) / 10_000n));
    const open = this.options.host.engine.openOrders(this.quoter, market.name);
    const far = gap * BigInt(levels + 2);
    const stale = open.filter((order) =>
      order.side === 1
        ? order.price <= mid || order.price > mid + far
        : order.price >= mid || order.price < mid - far,
    );
    for (const order of stale.slice(0, cancelledPerVisitMax)) {
      await this.submit({ type: 'order.cancel', userId: this.quoter, orderId: order.id });
    }
    const kept = open.filter((order) => !stale.includes(order));
    for (const side of [1, 2] as const) await this.fillSide(info, mid, gap, side, kept);
  }

  private async fillSide(
    info: MarketInfo,
    mid: bigint,
    gap: bigint,
    side: 1 | 2,
    kept: readonly OrderView[],
  ): Promise<void> {
    const { market } = info;
    const mine = kept.filter((order) => order.side === side);
    const taken = new Set(mine.map((order) => order.price));
    let room = Math.min(levels - mine.length, mine.length === 0 ? levels : placedPerVisitMax);
    for (let level = 1n; room > 0 && level <= BigInt(levels); level++) {
      const price = side === 1 ? mid + gap * level : mid - gap * level;
      if (price <= 0n || taken.has(price)) continue;
      const usd = BigInt(300 + Math.floor(this.random() * 2700)) * 10n ** 8n;
      await this.submit({
        type: 'order.limit',
        userId: this.quoter,
        market: market.name,
        side,
        price,
        amount: amountWorth(market, info.stockDecimals, usd),
        timeInForce: 'GTC',
        source: 'api',
      });
      room--;
    }
  }

  /** The taker account buys or sells a little at market. */
  private async trade(info: MarketInfo): Promise<void> {
    const usd = BigInt(50 + Math.floor(this.random() * 550)) * 10n ** 8n;
    await this.submit({
      type: 'order.market',
      userId: this.taker,
      market: info.market.name,
      side: this.random() < 0.5 ? 1 : 2,
      amount: amountWorth(info.market, info.stockDecimals, usd),
      source: 'api',
    });
  }

  private async submit(command: HostCommand): Promise<void> {
    if (this.stopped) return;
    // A refusal (no liquidity, a balance that ran short) is a value: the next visit adapts.
    await this.options.host.submit(command);
  }
}

function inBand(price: bigint, reference: bigint): boolean {
  const band = (reference * bandPerMille) / 1000n;
  return price >= reference - band && price <= reference + band;
}

function onTick(market: MarketView, price: bigint): bigint {
  const rounded = price - (price % market.tickSize);
  return rounded > 0n ? rounded : market.tickSize;
}

function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
