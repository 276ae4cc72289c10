import { type OrderJson, tradingMessages } from '@lattice/contracts';
import type { OrderView } from '@lattice/engine';
import type { EngineHost, HostCommand } from '../../engineHost/engineHost.js';
import { errorFromRejection } from '../../engineHost/rejections.js';
import { validationError } from '../../http/errors.js';
import type { MarketDirectory } from './markets.js';
import { presentOrder } from './orders.present.js';
import type { Caller } from './orders.service.js';

export interface BulkCancelReply {
  /** The notice of SPEC.md §8. */
  message: string;
  orders: OrderJson[];
}

/** Deleting all of a user's orders: in one market, in every market, or touching one coin. */
export class BulkCancelService {
  constructor(
    private readonly host: EngineHost,
    private readonly markets: MarketDirectory,
  ) {}

  /** All orders of `pair`, or of every market when `pair` is blank. */
  async cancelAll(caller: Caller, pair: string): Promise<BulkCancelReply> {
    if (pair !== '' && this.markets.find(pair) === undefined) {
      throw validationError({ pair: ['Market not found'] });
    }
    const command: HostCommand = {
      type: 'order.cancelAll',
      userId: caller.userId,
      ...(pair === '' ? {} : { market: pair }),
    };
    const orders = await this.submit(caller, command);
    return { message: tradingMessages.allOrdersDeleted(pair), orders };
  }

  /** All orders in markets that trade `coin` (as stock or money). */
  async cancelAllByCoin(caller: Caller, coin: string): Promise<BulkCancelReply> {
    if (this.markets.decimalsOf(coin) === undefined) {
      throw validationError({ coin: ['Unknown currency'] });
    }
    const command: HostCommand = {
      type: 'order.cancelAllByCoin',
      userId: caller.userId,
      asset: coin,
    };
    return {
      message: tradingMessages.allOrdersDeleted(coin),
      orders: await this.submit(caller, command),
    };
  }

  private async submit(caller: Caller, command: HostCommand): Promise<OrderJson[]> {
    await this.host.ensureUser(caller.userId);
    const result = await this.host.submit(command, caller.clientKey);
    if (!result.ok) throw errorFromRejection(result, { market: 'pair', asset: 'coin' });
    if (result.result.kind !== 'orders') throw new Error(`${command.type} answered no orders`);
    return result.result.orders.flatMap((order: OrderView) => {
      const info = this.markets.find(order.market);
      return info ? [presentOrder(order, info)] : [];
    });
  }
}
