import {
  type OcoOrderBody,
  type OrderJson,
  type StopLimitOrderBody,
  tradingMessages,
} from '@lattice/contracts';
import type { ApplyResult, Side } from '@lattice/engine';
import type { EngineHost, HostCommand } from '../../engineHost/engineHost.js';
import { errorFromRejection } from '../../engineHost/rejections.js';
import { AppError, validationError } from '../../http/errors.js';
import type { MarketDirectory, MarketInfo } from './markets.js';
import { presentOrder } from './orders.present.js';
import { amountOf, type Caller, selfTradeOf } from './orders.service.js';

const requestFields = { market: 'pair', stopPrice: 'stop_price', limitPrice: 'limit_price' };

/**
 * Stop-limit and OCO orders (API.md "Trading"). The price rules are checked here against the
 * last price first, for the spec's messages on the right fields; the engine checks them again
 * when it applies the command, against the last price of that moment.
 */
export class ConditionalOrdersService {
  constructor(
    private readonly host: EngineHost,
    private readonly markets: MarketDirectory,
  ) {}

  async placeStopLimit(caller: Caller, body: StopLimitOrderBody): Promise<OrderJson> {
    const info = this.marketOf(body.pair);
    const stopPrice = amountOf('stop_price', body.stop_price, info.moneyDecimals);
    const price = amountOf('price', body.price, info.moneyDecimals);
    const amount = amountOf('amount', body.amount, info.stockDecimals);
    const last = this.host.engine.lastPrice(info.market.name);
    if (last === 0n) throw validationError({ stop_price: [tradingMessages.noLastPrice] });
    if (stopPrice === last) {
      throw validationError({ stop_price: [tradingMessages.differentFromLast] });
    }
    const result = await this.submit(caller, {
      type: 'order.stopLimit',
      userId: caller.userId,
      market: info.market.name,
      side: sideOf(body.direction),
      stopPrice,
      price,
      amount,
      source: caller.source,
      ...selfTradeOf(body.self_trade_prevention),
    });
    if (result.kind !== 'order') throw new Error(`stop-limit answered ${result.kind}`);
    return presentOrder(result.order, info);
  }

  /** Places both legs; answers them limit leg first. */
  async placeOco(caller: Caller, body: OcoOrderBody): Promise<OrderJson[]> {
    const info = this.marketOf(body.pair);
    const price = amountOf('price', body.price, info.moneyDecimals);
    const stopPrice = amountOf('stop_price', body.stop_price, info.moneyDecimals);
    const limitPrice = amountOf('limit_price', body.limit_price, info.moneyDecimals);
    const amount = amountOf('amount', body.amount, info.stockDecimals);
    const side = sideOf(body.direction);
    checkOcoPrices(side, price, stopPrice, this.host.engine.lastPrice(info.market.name));
    const result = await this.submit(caller, {
      type: 'order.oco',
      userId: caller.userId,
      market: info.market.name,
      side,
      price,
      stopPrice,
      limitPrice,
      amount,
      source: caller.source,
      ...selfTradeOf(body.self_trade_prevention),
    });
    if (result.kind !== 'orders') throw new Error(`OCO answered ${result.kind}`);
    return result.orders.map((order) => presentOrder(order, info));
  }

  private async submit(caller: Caller, command: HostCommand) {
    await this.host.ensureUser(caller.userId);
    const result: ApplyResult = await this.host.submit(command, caller.clientKey);
    if (!result.ok) throw errorFromRejection(result, requestFields);
    return result.result;
  }

  private marketOf(name: string): MarketInfo {
    const info = this.markets.find(name);
    if (!info) throw validationError({ pair: ['Market not found'] });
    return info;
  }
}

/**
 * A sell needs stop price < last < price, a buy price < last < stop price (API.md); each
 * broken side is reported on its own field.
 */
function checkOcoPrices(side: Side, price: bigint, stopPrice: bigint, last: bigint): void {
  if (last === 0n) throw validationError({ stop_price: [tradingMessages.noLastPrice] });
  const errors: Record<string, string[]> = {};
  if (side === 1) {
    if (price <= last) errors.price = [tradingMessages.greaterThanLast];
    if (stopPrice >= last) errors.stop_price = [tradingMessages.lessThanLast];
  } else {
    if (price >= last) errors.price = [tradingMessages.lessThanLast];
    if (stopPrice <= last) errors.stop_price = [tradingMessages.greaterThanLast];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

function sideOf(direction: 'buy' | 'sell'): Side {
  return direction === 'sell' ? 1 : 2;
}

/** Margin order paths answer this until margin trading exists. */
export function marginNotAvailable(): AppError {
  return new AppError('margin_not_available');
}
