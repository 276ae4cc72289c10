import type { TradeTick } from '../domains/marketData/candles.js';
import type { MarketData } from '../domains/marketData/marketData.js';
import { decimalsOf } from '../domains/marketData/marketData.present.js';
import type { MarketDirectory, MarketInfo } from '../domains/orders/markets.js';
import type { Connection } from './connection.js';
import type { PushBatch } from './pushBatch.js';
import { pushFrame } from './rpc.js';
import { Topics } from './topics.js';

/** Deals sent after a subscribe at most (protocol-ws.md §5.2). */
export const dealsBacklogMax = 100;

/** A deal as the socket shows it; `type` is the taker's side. */
export function presentDeal(trade: TradeTick, info: MarketInfo) {
  const { money, stock } = decimalsOf(info);
  return {
    id: trade.id,
    time: trade.time / 1000,
    price: money(trade.price),
    amount: stock(trade.amount),
    type: trade.takerSide === 2 ? 'buy' : 'sell',
  };
}

/** `deals.subscribe` and `deals.update`: new trades per market, newest first. */
export class DealsFeed {
  readonly topics = new Topics('deals');
  private readonly pendingByMarket = new Map<string, TradeTick[]>();

  constructor(
    private readonly data: MarketData,
    private readonly markets: MarketDirectory,
  ) {}

  async subscribe(connection: Connection, infos: readonly MarketInfo[]): Promise<() => void> {
    this.topics.replace(
      connection,
      infos.map((info) => info.market.name),
    );
    const backlogs = await Promise.all(
      infos.map(async (info) => ({
        info,
        trades: await this.data.trades(info.market.name, dealsBacklogMax),
      })),
    );
    // The backlog follows the reply.
    return () => {
      for (const { info, trades } of backlogs) {
        if (trades.length === 0) continue;
        const deals = trades.map((trade) => presentDeal(trade, info));
        connection.sendFrame(pushFrame('deals.update', [info.market.name, deals]));
      }
    };
  }

  tradesAdded(market: string, trades: readonly TradeTick[]): void {
    if (this.topics.subscribers(market) === undefined) return;
    const pending = this.pendingByMarket.get(market) ?? [];
    // NOTE: a loop, not push(...trades): one market order can fill more orders than a call
    // takes arguments (about 120,000 in V8), and the call would throw.
    for (const trade of trades) pending.push(trade);
    this.pendingByMarket.set(market, pending);
  }

  get pending(): boolean {
    return this.pendingByMarket.size > 0;
  }

  flush(batch: PushBatch): void {
    for (const [market, trades] of this.pendingByMarket) {
      const info = this.markets.find(market);
      if (info === undefined) continue;
      const deals = trades.map((trade) => presentDeal(trade, info)).reverse();
      this.topics.fanOut(market, pushFrame('deals.update', [market, deals]), batch);
    }
    this.pendingByMarket.clear();
  }
}
