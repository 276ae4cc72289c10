// A restore puts a snapshot into the columnar core only when the core could have made that
// state itself: each case here is a state the core declined to make, reached on the bigint core
// by real commands, which a restart must leave on the bigint core (and with the same hash).
import { describe, expect, it } from 'vitest';
import { ask, bid, setUp, setupCommands } from './enginePairTestKit.js';

describe('columnar core: a restore of what it declined', () => {
  it('an ask whose value fits but whose value and fee do not', () => {
    const pair = setUp(undefined, setupCommands(1000, 2000));
    pair.apply(ask(1, 9n * 10n ** 15n, 10n ** 8n));
    expect(pair.engine.coreName).toBe('bigint');
    pair.restart();
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('a side whose total of amounts passes 2^53', () => {
    const pair = setUp();
    pair.apply(bid(1, 2n ** 52n, 1n));
    pair.apply(bid(2, 2n ** 52n, 1n));
    expect(pair.engine.coreName).toBe('bigint');
    pair.restart();
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('waiting stops whose amounts pass 2^53', () => {
    const pair = setUp();
    pair.apply(bid(2, 1n, 10n));
    pair.apply(ask(1, 1n, 10n));
    const stop = { ...ask(1, 2n ** 52n, 1n), type: 'order.stopLimit', stopPrice: 5n };
    pair.apply(stop);
    pair.apply(stop);
    expect(pair.engine.coreName).toBe('bigint');
    pair.restart();
    expect(pair.engine.coreName).toBe('bigint');
  });

  it('a sell whose deals so far and the value of its rest pass 2^53', () => {
    const pair = setUp();
    // A bid worth 9 × 10^15 far above the market; a sell takes it and rests 10^13 + 1 at 10^8
    // ticks, worth as much again: its own price bounds what it will move, not what it moved.
    pair.apply(bid(1, 10n ** 8n, 9n * 10n ** 15n));
    pair.apply(ask(2, 10n ** 8n + 10n ** 13n + 1n, 10n ** 8n));
    expect(pair.engine.coreName).toBe('bigint');
    pair.restart();
    expect(pair.engine.coreName).toBe('bigint');
    // Its deal money comes to 9.01 × 10^15 + 1, odd, past what a double holds.
    pair.apply(bid(1, 10n ** 13n + 1n, 10n ** 8n));
  });
});
