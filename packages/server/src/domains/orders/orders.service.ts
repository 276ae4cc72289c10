import { type OrderJson, parseAmount, type SelfTradePreventionJson } from '@lattice/contracts';
import type { ApplyResult, OrderSource, SelfTradePrevention, Side } from '@lattice/engine';
import type { Db } from '../../db/database.js';
import type { ClientKey, EngineHost, HostCommand } from '../../engineHost/engineHost.js';
import { errorFromRejection } from '../../engineHost/rejections.js';
import { validationError } from '../../http/errors.js';
import type { MarketDirectory, MarketInfo } from './markets.js';
import { presentOrder } from './orders.present.js';
import { openOrdersPage, orderViewFromRow } from './orders.repo.js';
import type { LimitOrderBody, MarketOrderBody, OpenOrdersQuery } from './orders.schemas.js';

/** Who places an order and through what. */
export interface Caller {
  readonly userId: number;
  readonly source: OrderSource;
  readonly clientKey: ClientKey | undefined;
}

const SELF_TRADE_MODES: Record<NonNullable<SelfTradePreventionJson>, SelfTradePrevention> = {
  cancel_newest: 'cancelNewest',
  cancel_oldest: 'cancelOldest',
  cancel_both: 'cancelBoth',
};

/** A body's self_trade_prevention as the engine's field; nothing when absent (the default). */
export function selfTradeOf(value: SelfTradePreventionJson): {
  selfTradePrevention?: SelfTradePrevention;
} {
  return value === undefined ? {} : { selfTradePrevention: SELF_TRADE_MODES[value] };
}

// The engine's field names, as this API spells them.
const requestFields = { market: 'pair', stopPrice: 'stop_price', limitPrice: 'limit_price' };

/** Spot orders: validation against the market, commands to the engine host, presentation. */
export class OrdersService {
  constructor(
    private readonly host: EngineHost,
    private readonly db: Db,
    private readonly markets: MarketDirectory,
  ) {}

  async placeLimit(caller: Caller, body: LimitOrderBody): Promise<OrderJson> {
    const info = this.marketOf(body.pair);
    const price = amountOf('price', body.price, info.moneyDecimals);
    const amount = amountOf('amount', body.amount, info.stockDecimals);
    return this.place(caller, info, {
      type: 'order.limit',
      userId: caller.userId,
      market: info.market.name,
      side: sideOf(body.direction),
      price,
      amount,
      timeInForce: 'GTC',
      source: caller.source,
      ...selfTradeOf(body.self_trade_prevention),
    });
  }

  async placeMarket(caller: Caller, body: MarketOrderBody): Promise<OrderJson> {
    const info = this.marketOf(body.pair);
    const base = {
      type: 'order.market' as const,
      userId: caller.userId,
      market: info.market.name,
      side: sideOf(body.direction),
      source: caller.source,
      ...selfTradeOf(body.self_trade_prevention),
    };
    const command: HostCommand =
      body.total !== undefined
        ? { ...base, total: amountOf('total', body.total, info.moneyDecimals) }
        : { ...base, amount: amountOf('amount', body.amount ?? '', info.stockDecimals) };
    return this.place(caller, info, command);
  }

  /**
   * Cancels one of the caller's orders; another user's order is not found. The engine decides,
   * not a check here: a repeated key must get the first answer even once the order is gone.
   */
  async cancel(caller: Caller, orderId: number): Promise<OrderJson> {
    const command: HostCommand = { type: 'order.cancel', userId: caller.userId, orderId };
    return this.place(caller, null, command);
  }

  async listOpen(userId: number, query: OpenOrdersQuery) {
    const market = query.pairName === 'all' || query.pairName === '' ? null : query.pairName;
    const page = await openOrdersPage(this.db, userId, market, query);
    const records = page.rows.flatMap((row) => {
      const info = this.markets.find(row.market);
      return info ? [presentOrder(orderViewFromRow(row), info)] : [];
    });
    return { records, total: page.total, offset: query.offset, limit: query.limit };
  }

  /** Submits an order command; `info` is the order's market when known beforehand. */
  private async place(
    caller: Caller,
    info: MarketInfo | null,
    command: HostCommand,
  ): Promise<OrderJson> {
    await this.host.ensureUser(caller.userId);
    const result: ApplyResult = await this.host.submit(command, caller.clientKey);
    if (!result.ok) throw errorFromRejection(result, requestFields);
    if (result.result.kind !== 'order') {
      throw new Error(`${command.type} answered ${result.result.kind}, expected an order`);
    }
    const { order } = result.result;
    return presentOrder(order, info ?? this.marketOf(order.market));
  }

  private marketOf(name: string): MarketInfo {
    const info = this.markets.find(name);
    if (!info) throw validationError({ pair: ['Market not found'] });
    return info;
  }
}

function sideOf(direction: 'buy' | 'sell'): Side {
  return direction === 'sell' ? 1 : 2;
}

/** Parses a decimal amount at the asset's decimals; a bad one is a 422 on its field. */
export function amountOf(field: string, text: string, decimals: number): bigint {
  const parsed = parseAmount(text, decimals);
  if (!parsed.ok) throw validationError({ [field]: [parsed.message] });
  return parsed.value;
}
