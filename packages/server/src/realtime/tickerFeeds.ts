import { amountToDecimal } from '@lattice/contracts';
import type { MarketData } from '../domains/marketData/marketData.js';
import { presentToday } from '../domains/marketData/marketData.present.js';
import type { MarketDirectory, MarketInfo } from '../domains/orders/markets.js';
import type { Connection } from './connection.js';
import { pushFrame } from './rpc.js';
import { Topics } from './topics.js';

/**
 * `today.*` (rolling 24 h statistics) and `price.*` (last price): pushed when the value a
 * market's subscribers last received changes.
 */
export class TickerFeeds {
  readonly today = new Topics('today', { closed: (key) => this.todaySent.delete(key) });
  readonly price = new Topics('price', { closed: (key) => this.priceSent.delete(key) });
  private readonly todaySent = new Map<string, string>();
  private readonly priceSent = new Map<string, string>();
  private readonly dirtyMarkets = new Set<string>();

  constructor(
    private readonly data: MarketData,
    private readonly markets: MarketDirectory,
  ) {}

  todayOf(info: MarketInfo) {
    return presentToday(this.data.today(info.market.name), info);
  }

  priceOf(info: MarketInfo): string {
    return amountToDecimal(this.data.lastPrice(info.market.name), info.moneyDecimals);
  }

  /** Subscribes; the current values follow the reply. */
  subscribeToday(connection: Connection, infos: readonly MarketInfo[]): () => void {
    this.today.replace(
      connection,
      infos.map((info) => info.market.name),
    );
    return () => {
      for (const info of infos) {
        connection.sendFrame(pushFrame('today.update', [info.market.name, this.todayOf(info)]));
      }
    };
  }

  subscribePrice(connection: Connection, infos: readonly MarketInfo[]): () => void {
    this.price.replace(
      connection,
      infos.map((info) => info.market.name),
    );
    return () => {
      for (const info of infos) {
        if (this.data.lastPrice(info.market.name) === 0n) continue;
        connection.sendFrame(pushFrame('price.update', [info.market.name, this.priceOf(info)]));
      }
    };
  }

  tradesAdded(market: string): void {
    this.dirtyMarkets.add(market);
  }

  /** The rolling window moves with the clock: every subscribed market is looked at again. */
  windowMoved(): void {
    for (const market of this.today.keys()) this.dirtyMarkets.add(market);
  }

  get pending(): boolean {
    return this.dirtyMarkets.size > 0;
  }

  flush(corked: Set<Connection>): void {
    for (const market of this.dirtyMarkets) {
      const info = this.markets.find(market);
      if (info === undefined) continue;
      if (this.today.subscribers(market) !== undefined) {
        const today = this.todayOf(info);
        const text = JSON.stringify(today);
        if (this.todaySent.get(market) !== text) {
          this.todaySent.set(market, text);
          this.today.fanOut(market, pushFrame('today.update', [market, today]), corked);
        }
      }
      if (this.price.subscribers(market) !== undefined) {
        const price = this.priceOf(info);
        if (this.priceSent.get(market) !== price) {
          this.priceSent.set(market, price);
          this.price.fanOut(market, pushFrame('price.update', [market, price]), corked);
        }
      }
    }
    this.dirtyMarkets.clear();
  }
}
