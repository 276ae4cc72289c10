import { amountToDecimal, depthSocketLimits } from '@lattice/contracts';
import type { CommittedDepth } from '../domains/marketData/committedDepth.js';
import type { MarketInfo } from '../domains/orders/markets.js';
import type { Connection } from './connection.js';
import type { PushBatch } from './pushBatch.js';
import { pushFrame } from './rpc.js';
import { Topics } from './topics.js';

type Level = [bigint, bigint];

interface Book {
  asks: Level[];
  bids: Level[];
}

interface DepthKey {
  info: MarketInfo;
  limit: number;
  step: bigint;
  /** What every subscriber of the key has: the last snapshot plus the diffs sent since. */
  sent: Book;
  cleanAtMs: number;
  unwatch: () => void;
}

/** A full snapshot goes out at least this often per key, so a client that drifted recovers. */
export const depthCleanIntervalMs = 60_000;

export function isDepthLimit(limit: number): boolean {
  return (depthSocketLimits as readonly number[]).includes(limit);
}

/**
 * `depth.subscribe` and `depth.update`. Each (market, limit, merge step) key keeps what its
 * subscribers were sent; after each committed change the new top levels are compared with it
 * once per key and the same diff goes to every subscriber. A diff names every level that
 * changed, appeared or left the top `limit` (amount "0"), so applying it always gives the
 * engine's book.
 */
export class DepthFeed {
  readonly topics: Topics;
  private readonly keys = new Map<string, DepthKey>();
  private readonly dirtyMarkets = new Set<string>();

  constructor(
    private readonly depth: CommittedDepth,
    private readonly now: () => number,
  ) {
    this.topics = new Topics('depth', { closed: (key) => this.drop(key) });
  }

  /** Subscribes; the returned function sends the snapshot (after the reply). */
  subscribe(connection: Connection, info: MarketInfo, limit: number, step: bigint): () => void {
    const id = `${info.market.name}|${limit}|${step}`;
    // Replacing first: re-subscribing to the same key drops and re-creates its state.
    this.topics.replace(connection, [id]);
    let key = this.keys.get(id);
    if (key === undefined) {
      const unwatch = this.depth.watch(info.market.name, step);
      const sent = this.top(info.market.name, limit, step);
      key = { info, limit, step, sent, cleanAtMs: this.now(), unwatch };
      this.keys.set(id, key);
    }
    const subscribed = key;
    return () => {
      // The key may have changed since: the snapshot is what its subscribers have now.
      connection.sendFrame(this.frame(subscribed, true, subscribed.sent));
    };
  }

  /** The merged book as `depth.query` answers it. */
  query(info: MarketInfo, limit: number, step: bigint) {
    return present(this.top(info.market.name, limit, step), info);
  }

  marketsChanged(markets: ReadonlySet<string>): void {
    for (const market of markets) this.dirtyMarkets.add(market);
  }

  get pending(): boolean {
    return this.dirtyMarkets.size > 0;
  }

  /** Sends each changed key's diff, and a snapshot to keys whose last one is old. */
  flush(batch: PushBatch): void {
    const nowMs = this.now();
    const dirty = new Set(this.dirtyMarkets);
    this.dirtyMarkets.clear();
    for (const [id, key] of this.keys) {
      const due = nowMs - key.cleanAtMs >= depthCleanIntervalMs;
      if (!due && !dirty.has(key.info.market.name)) continue;
      const next = this.top(key.info.market.name, key.limit, key.step);
      if (due) {
        key.cleanAtMs = nowMs;
        key.sent = next;
        this.topics.fanOut(id, this.frame(key, true, next), batch);
        continue;
      }
      const asks = diff(key.sent.asks, next.asks);
      const bids = diff(key.sent.bids, next.bids);
      key.sent = next;
      if (asks.length === 0 && bids.length === 0) continue;
      const changes: Partial<Book> = {};
      if (asks.length > 0) changes.asks = asks;
      if (bids.length > 0) changes.bids = bids;
      this.topics.fanOut(id, this.frame(key, false, changes), batch);
    }
  }

  private top(market: string, limit: number, step: bigint): Book {
    const book = this.depth.mergedBook(market, step);
    return { asks: book.asks.slice(0, limit), bids: book.bids.slice(0, limit) };
  }

  private frame(key: DepthKey, clean: boolean, book: Partial<Book>): Buffer {
    return pushFrame('depth.update', [clean, present(book, key.info), key.info.market.name]);
  }

  private drop(id: string): void {
    this.keys.get(id)?.unwatch();
    this.keys.delete(id);
  }
}

/** Levels whose amount changed or that appeared, then those that left (amount 0). */
function diff(before: readonly Level[], after: readonly Level[]): Level[] {
  const old = new Map(before.map(([price, amount]) => [price, amount]));
  const out: Level[] = [];
  for (const [price, amount] of after) {
    if (old.get(price) !== amount) out.push([price, amount]);
    old.delete(price);
  }
  for (const price of old.keys()) out.push([price, 0n]);
  return out;
}

function present(book: Partial<Book>, info: MarketInfo) {
  const side = (levels: Level[]) =>
    levels.map(([price, amount]) => [
      amountToDecimal(price, info.moneyDecimals),
      amountToDecimal(amount, info.stockDecimals),
    ]);
  const out: { asks?: string[][]; bids?: string[][] } = {};
  if (book.asks) out.asks = side(book.asks);
  if (book.bids) out.bids = side(book.bids);
  return out;
}
