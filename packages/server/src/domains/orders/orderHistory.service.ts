import {
  amountToDecimal,
  type FinishedOrdersQuery,
  historyExportMax,
  type OrderJson,
  type OwnTradeJson,
  type OwnTradesQuery,
  type Page,
} from '@lattice/contracts';
import { amountFromDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import { isoTime, toCsv } from './csv.js';
import type { MarketDirectory } from './markets.js';
import { finishedOrdersPage, type OwnTradeRow, ownTradesPage } from './orderHistory.repo.js';
import { presentOrder } from './orders.present.js';
import { orderViewFromRow } from './orders.repo.js';

/** A history list as JSON, or the same rows as a CSV file. */
export type HistoryReply<T> = { kind: 'json'; page: Page<T> } | { kind: 'csv'; csv: string };

const typeLabels = ['Limit', 'Market', 'Stop Limit', 'OCO'];
const finishLabels = ['filled', 'cancelled', 'cancelled (OCO)', 'no liquidity'];

/** Finished orders and own trades, with filters, paging and CSV export. */
export class OrderHistoryService {
  constructor(
    private readonly db: Db,
    private readonly markets: MarketDirectory,
  ) {}

  async finishedOrders(
    userId: number,
    query: FinishedOrdersQuery,
  ): Promise<HistoryReply<OrderJson>> {
    const window = windowOf(query);
    const { rows, total } = await finishedOrdersPage(this.db, userId, query, window);
    const orders = rows.flatMap((row) => {
      const info = this.markets.find(row.market);
      return info ? [presentOrder(orderViewFromRow(row), info)] : [];
    });
    if (query.format === 'json') {
      return {
        kind: 'json',
        page: { records: orders, total, offset: query.offset, limit: query.limit },
      };
    }
    const header = [
      'id',
      'market',
      'type',
      'side',
      'price',
      'stop_price',
      'amount',
      'deal_stock',
      'deal_money',
      'deal_fee',
      'created',
      'finished',
      'status',
    ];
    const csvRows = orders.map((o) => [
      o.id,
      o.market,
      typeLabels[o.algorithm === 0 ? o.type - 1 : o.algorithm + 1],
      o.side === 2 ? 'buy' : 'sell',
      o.price,
      o.stop_price,
      o.amount,
      o.deal_stock,
      o.deal_money,
      o.deal_fee,
      isoTime(o.ctime * 1000),
      isoTime(o.ftime * 1000),
      finishLabels[o.finish_reason ?? 0],
    ]);
    return { kind: 'csv', csv: toCsv(header, csvRows) };
  }

  async ownTrades(userId: number, query: OwnTradesQuery): Promise<HistoryReply<OwnTradeJson>> {
    const window = windowOf(query);
    const { rows, total } = await ownTradesPage(this.db, userId, query, window);
    const trades = rows.flatMap((row) => this.presentTrade(row));
    if (query.format === 'json') {
      return {
        kind: 'json',
        page: { records: trades, total, offset: query.offset, limit: query.limit },
      };
    }
    const header = [
      'time',
      'market',
      'side',
      'role',
      'price',
      'amount',
      'total',
      'fee',
      'fee_asset',
      'order_id',
      'trade_id',
    ];
    const csvRows = trades.map((t) => [
      isoTime(t.time * 1000),
      t.market,
      t.side === 2 ? 'buy' : 'sell',
      t.role === 1 ? 'maker' : 'taker',
      t.price,
      t.amount,
      t.deal,
      t.fee,
      t.fee_asset,
      t.deal_order_id,
      t.id,
    ]);
    return { kind: 'csv', csv: toCsv(header, csvRows) };
  }

  private presentTrade({ trade, role }: OwnTradeRow): OwnTradeJson[] {
    const info = this.markets.find(trade.market);
    if (!info) return [];
    const maker = role === 1;
    const feeAsset = maker ? trade.maker_fee_asset : trade.taker_fee_asset;
    const feeDecimals = this.markets.decimalsOf(feeAsset) ?? info.moneyDecimals;
    return [
      {
        id: Number(trade.id),
        time: Number(trade.time) / 1000,
        market: trade.market,
        side: maker ? 3 - trade.taker_side : trade.taker_side,
        role,
        price: amountToDecimal(amountFromDb(trade.price), info.moneyDecimals),
        amount: amountToDecimal(amountFromDb(trade.amount), info.stockDecimals),
        deal: amountToDecimal(amountFromDb(trade.total), info.moneyDecimals),
        fee: amountToDecimal(amountFromDb(maker ? trade.maker_fee : trade.taker_fee), feeDecimals),
        fee_asset: feeAsset,
        deal_order_id: Number(maker ? trade.maker_order_id : trade.taker_order_id),
      },
    ];
  }
}

/** JSON pages as asked; a CSV export takes every matching row from `offset`, up to a limit. */
function windowOf(query: { offset: number; limit: number; format: 'json' | 'csv' }) {
  return query.format === 'csv'
    ? { offset: query.offset, limit: historyExportMax }
    : { offset: query.offset, limit: query.limit };
}
