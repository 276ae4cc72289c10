// The journal's codec: what the engine emits and takes comes back from JSON text as it was, and
// text that is not ours is refused. Which fields are bigints the compiler checks (codec.ts).
import { describe, expect, it } from 'vitest';
import {
  bigintFromJson,
  commandFromJson,
  commandToJson,
  eventFromJson,
  eventToJson,
} from './codec.js';
import {
  BUY,
  btc,
  CORES,
  type CommandInput,
  SELL,
  stopLimit,
  TestExchange,
  usdt,
} from './fixtures.js';
import type { Command } from './types.js';

/** Through JSON text, as the journal stores it. */
const throughText = <T>(value: T): unknown => JSON.parse(JSON.stringify(value));

describe.each(CORES)('the codec on the %s core', (_core, makeEngine) => {
  it('gives back every event of a run, of every type, as the engine emitted it', () => {
    const x = TestExchange.traded(makeEngine());
    const types = new Set<string>();
    const run = (cmd: CommandInput) => {
      // Checked at once: a columnar result's events are not kept past the next command.
      for (const event of x.ok(cmd).events) {
        types.add(event.type);
        const back = eventFromJson(throughText(eventToJson(event)) as Record<string, unknown>);
        expect(back).toEqual(event);
      }
    };
    run(stopLimit(1, SELL, '29000', '28000', '0.01'));
    run({
      type: 'order.limit',
      userId: 2,
      market: 'BTC_USDT',
      side: BUY,
      price: usdt('28500'),
      amount: btc('0.02'),
      timeInForce: 'GTC',
      source: 'web',
    });
    // A sale at 28,500 fires the stop, which sells into the rest of the bid.
    run({
      type: 'order.limit',
      userId: 1,
      market: 'BTC_USDT',
      side: SELL,
      price: usdt('28500'),
      amount: btc('0.005'),
      timeInForce: 'GTC',
      source: 'api',
    });
    run({ type: 'order.cancelAll', userId: 2 });
    expect([...types].sort()).toEqual([
      'balance',
      'deal',
      'order.finish',
      'order.put',
      'order.triggered',
      'order.update',
    ]);
  });
});

describe('the codec', () => {
  it('gives back commands with every bigint field set', () => {
    const commands: Command[] = [
      {
        type: 'order.oco',
        time: 1,
        userId: 1,
        market: 'BTC_USDT',
        side: BUY,
        price: 1n,
        stopPrice: 3n,
        limitPrice: 4n,
        amount: 2n ** 70n,
        source: 'web',
      },
      {
        type: 'order.market',
        time: 2,
        userId: 1,
        market: 'BTC_USDT',
        side: BUY,
        total: 10n ** 30n,
        source: 'api',
      },
      {
        type: 'market.setLimits',
        time: 3,
        market: 'BTC_USDT',
        orderValueMax: 0n,
        orderAmountMax: 5n,
      },
      { type: 'balance.withdrawComplete', time: 4, businessId: 'w', fee: -1n },
    ];
    for (const cmd of commands) {
      expect(commandFromJson(throughText(commandToJson(cmd)) as Record<string, unknown>)).toEqual(
        cmd,
      );
    }
  });

  it('refuses numbers that are not integer text, and types it does not know', () => {
    for (const bad of ['1.5', '01', '', '+1', ' 1', '1e3', '0x10', 1, null, undefined, 1n]) {
      expect(() => bigintFromJson(bad, 'amount')).toThrow(/amount: expected an integer string/);
    }
    expect(bigintFromJson('-12', 'delta')).toBe(-12n);
    expect(() => commandFromJson({ type: 'order.teleport' })).toThrow(/unknown command type/);
    expect(() => eventFromJson({ type: 'order.teleported' })).toThrow(/unknown event type/);
    const limit = { type: 'order.limit', time: 1, price: '1.5', amount: '1' };
    expect(() => commandFromJson(limit)).toThrow(/price/);
  });
});
