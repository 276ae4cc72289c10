import { amountToDecimal, orderEvents } from '@lattice/contracts';
import type { AccountKind, BalanceLeg, EngineEvent, OrderEvent } from '@lattice/engine';
import type { MarketDirectory } from '../domains/orders/markets.js';
import { presentOrder } from '../domains/orders/orders.present.js';
import type { Connection } from './connection.js';
import { Topics } from './topics.js';

const eventCodes: Record<OrderEvent['type'], number> = {
  'order.put': orderEvents.put,
  'order.update': orderEvents.update,
  'order.finish': orderEvents.finish,
  'order.triggered': orderEvents.triggered,
};

/** The trade account is `asset.*`; the margin account `asset_margin.*` (protocol-ws.md). */
const accountChannels = { trade: 'asset', margin: 'asset_margin' } as const;

interface PendingBalance {
  account: 'trade' | 'margin';
  asset: string;
  available: bigint;
  frozen: bigint;
}

/**
 * The private channels: `order.update` for the user's orders in subscribed markets, and
 * `asset.update` / `asset_margin.update` with absolute balances of subscribed assets.
 * Subscriptions are keyed by user, so an event goes only to its owner's connections.
 */
export class PrivateFeed {
  readonly orders = new Topics('order');
  readonly assets = new Topics('asset');
  readonly marginAssets = new Topics('asset_margin');
  private readonly orderFrames = new Map<Connection, string[]>();
  /** Per user: the newest balance of each (account, asset) changed since the last flush. */
  private readonly balances = new Map<number, Map<string, PendingBalance>>();

  constructor(
    private readonly markets: MarketDirectory,
    private readonly decimalsOf: (asset: string) => number,
  ) {}

  /** Keys are `userId|market` or `userId|asset`. */
  static key(userId: number, name: string): string {
    return `${userId}|${name}`;
  }

  /** Drops a connection's private subscriptions (on sign-in as someone else). */
  clear(connection: Connection): void {
    this.orders.clear(connection);
    this.assets.clear(connection);
    this.marginAssets.clear(connection);
    this.orderFrames.delete(connection);
  }

  take(events: readonly EngineEvent[]): void {
    for (const event of events) {
      if (event.type === 'balance') {
        for (const leg of event.legs) this.noteBalance(leg);
      } else if (event.type !== 'deal') {
        this.noteOrder(event);
      }
    }
  }

  get pending(): boolean {
    return this.orderFrames.size > 0 || this.balances.size > 0;
  }

  flush(): void {
    for (const [connection, frames] of this.orderFrames) {
      for (const frame of frames) connection.send(frame);
    }
    this.orderFrames.clear();
    for (const [userId, changed] of this.balances) this.flushBalances(userId, changed);
    this.balances.clear();
  }

  private noteOrder(event: OrderEvent): void {
    const { order } = event;
    const subscribers = this.orders.subscribers(PrivateFeed.key(order.userId, order.market));
    if (subscribers === undefined) return;
    const info = this.markets.find(order.market);
    if (info === undefined) return;
    const frame = JSON.stringify({
      method: 'order.update',
      params: [eventCodes[event.type], presentOrder(order, info)],
      id: null,
    });
    for (const connection of subscribers) {
      const frames = this.orderFrames.get(connection) ?? [];
      frames.push(frame);
      this.orderFrames.set(connection, frames);
    }
  }

  private noteBalance(leg: BalanceLeg): void {
    if (typeof leg.owner !== 'number' || !isPushed(leg.account)) return;
    const topics = leg.account === 'trade' ? this.assets : this.marginAssets;
    if (topics.subscribers(PrivateFeed.key(leg.owner, leg.asset)) === undefined) return;
    let changed = this.balances.get(leg.owner);
    if (changed === undefined) {
      changed = new Map();
      this.balances.set(leg.owner, changed);
    }
    changed.set(`${leg.account}|${leg.asset}`, {
      account: leg.account,
      asset: leg.asset,
      available: leg.available,
      frozen: leg.frozen,
    });
  }

  private flushBalances(userId: number, changed: Map<string, PendingBalance>): void {
    for (const account of ['trade', 'margin'] as const) {
      const topics = account === 'trade' ? this.assets : this.marginAssets;
      const byConnection = new Map<Connection, Record<string, Record<string, string>>>();
      for (const balance of changed.values()) {
        if (balance.account !== account) continue;
        const subscribers = topics.subscribers(PrivateFeed.key(userId, balance.asset));
        for (const connection of subscribers ?? []) {
          const payload = byConnection.get(connection) ?? {};
          payload[balance.asset] = presentBalance(balance, this.decimalsOf(balance.asset));
          byConnection.set(connection, payload);
        }
      }
      const method = `${accountChannels[account]}.update`;
      for (const [connection, payload] of byConnection) connection.push(method, [payload]);
    }
  }
}

function isPushed(account: AccountKind): account is 'trade' | 'margin' {
  return account === 'trade' || account === 'margin';
}

/** `{ available, freeze }`, plus `borrow` and `interest` on the margin account. */
export function presentBalance(
  balance: { account: 'trade' | 'margin'; available: bigint; frozen: bigint },
  decimals: number,
): Record<string, string> {
  const out: Record<string, string> = {
    available: amountToDecimal(balance.available, decimals),
    freeze: amountToDecimal(balance.frozen, decimals),
  };
  if (balance.account === 'margin') {
    out.borrow = '0';
    out.interest = '0';
  }
  return out;
}
