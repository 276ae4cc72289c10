import { tooManySubscriptionsMessage } from '@lattice/contracts';
import type { Channel, Connection } from './connection.js';
import type { PushBatch } from './pushBatch.js';
import { invalidArgument } from './rpc.js';

/** Told when a key gets its first subscriber or loses its last one. */
export interface TopicHooks {
  opened?(key: string): void;
  closed?(key: string): void;
}

/** Subscribers of one channel, by key (a market, a market and interval, ...). */
export class Topics {
  private readonly byKey = new Map<string, Set<Connection>>();

  constructor(
    readonly channel: Channel,
    private readonly hooks: TopicHooks = {},
  ) {}

  /**
   * Replaces the connection's keys on this channel (a subscribe replaces the previous one, as
   * upstream does); refused when the connection would hold too many subscriptions.
   */
  replace(connection: Connection, keys: readonly string[]): void {
    const unique = [...new Set(keys)];
    if (connection.subscriptionCount(this.channel) + unique.length > connection.subscriptionsMax) {
      throw invalidArgument(tooManySubscriptionsMessage);
    }
    this.clear(connection);
    const held = connection.keys(this.channel);
    for (const key of unique) {
      held.add(key);
      let set = this.byKey.get(key);
      if (set === undefined) {
        set = new Set();
        this.byKey.set(key, set);
        this.hooks.opened?.(key);
      }
      set.add(connection);
    }
  }

  clear(connection: Connection): void {
    const held = connection.subscriptions.get(this.channel);
    if (held === undefined) return;
    for (const key of held) {
      const set = this.byKey.get(key);
      if (set === undefined) continue;
      set.delete(connection);
      if (set.size === 0) {
        this.byKey.delete(key);
        this.hooks.closed?.(key);
      }
    }
    held.clear();
  }

  subscribers(key: string): ReadonlySet<Connection> | undefined {
    return this.byKey.get(key);
  }

  keys(): IterableIterator<string> {
    return this.byKey.keys();
  }

  /** Queues one encoded frame (`pushFrame`) for every subscriber of `key`. */
  fanOut(key: string, frame: Buffer, batch: PushBatch): void {
    const set = this.byKey.get(key);
    if (set === undefined) return;
    for (const connection of set) batch.add(connection, frame);
  }
}
