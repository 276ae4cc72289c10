// The event log's chunks are reused only after Engine.releaseResults: results read at once stay
// the engine's events (the bigint core's, compared), a result kept unread past a release throws
// once its chunk is reused, and without releases every result stays readable.
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine.js';
import { BUY, btc, MARKET, SELL, TestExchange, usdt } from '../fixtures.js';
import { State } from '../state.js';
import type { ApplyResult, Command } from '../types.js';
import { LOG_CHUNK, LogChunk, LogChunks } from './logChunks.js';

function json(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

/** The standard exchange on `engine`, with two users funded on their trade accounts. */
function funded(engine: Engine): TestExchange {
  const x = TestExchange.standard(engine);
  // The comparison with the bigint core checks every event; invariants are its other tests'.
  x.checkInvariants = false;
  for (const userId of [1, 2]) {
    x.fund(userId, 'BTC', btc('1000000'));
    x.fund(userId, 'USDT', usdt('1000000000'));
  }
  return x;
}

/**
 * A stream that rests, trades and cancels: user 1 bids below the mid and user 2 asks above it,
 * then a market order of the other side's user takes from them, then a cancel by id (of an
 * order that may have finished or be another user's: a rejection, as the stream goes).
 */
function* stream(count: number, time: number): Generator<Command> {
  let nextId = 0;
  for (let i = 0; i < count; i++) {
    const t = time + i;
    const k = i % 4;
    if (k === 0 || k === 1) {
      const side = k === 0 ? BUY : SELL;
      const price = k === 0 ? usdt(String(990 - (i % 50))) : usdt(String(1010 + (i % 50)));
      yield {
        type: 'order.limit',
        time: t,
        userId: 1 + (i % 2),
        market: MARKET,
        side,
        price,
        amount: btc('0.01'),
        timeInForce: 'GTC',
        source: 'api',
      };
    } else if (k === 2) {
      yield {
        type: 'order.market',
        time: t,
        userId: i % 8 === 2 ? 2 : 1,
        market: MARKET,
        side: i % 8 === 2 ? SELL : BUY,
        amount: btc('0.005'),
        source: 'api',
      };
    } else {
      nextId++;
      yield { type: 'order.cancel', time: t, userId: 1 + (nextId % 2), orderId: nextId };
    }
  }
}

describe('LogChunks', () => {
  const names = { assetNames: [], markets: [] };

  it('reuses a retired chunk of the usual size only after a release, one generation on', () => {
    const chunks = new LogChunks(names);
    const first = chunks.next(LOG_CHUNK);
    chunks.retire(first);
    const second = chunks.next(LOG_CHUNK);
    // Compared as booleans: a failing toBe would compare the chunks' arrays deeply.
    expect(second === first).toBe(false);
    chunks.release();
    const third = chunks.next(LOG_CHUNK);
    expect(third === first).toBe(true);
    expect(third.generation).toBe(1);
  });

  it('never keeps a chunk of another size', () => {
    const chunks = new LogChunks(names);
    const big = new LogChunk(new Float64Array(2 * LOG_CHUNK), names);
    chunks.retire(big);
    chunks.release();
    expect(chunks.next(2 * LOG_CHUNK) === big).toBe(false);
    expect(chunks.next(LOG_CHUNK).data.length).toBe(LOG_CHUNK);
  });
});

// Tens of thousands of commands through both cores: seconds on a loaded machine.
describe('Engine.releaseResults', { timeout: 60_000 }, () => {
  // Enough commands to fill several chunks (a fill writes about a hundred numbers).
  const COUNT = 40_000;

  function engines(): { columnar: Engine; bigint: Engine; time: number } {
    const columnar = funded(new Engine());
    const bigint = funded(new Engine(new State()));
    return { columnar: columnar.engine, bigint: bigint.engine, time: columnar.time };
  }

  it('gives the same events as the bigint core when each result is read before the release', () => {
    const { columnar, bigint, time } = engines();
    let deals = 0;
    for (const cmd of stream(COUNT, time)) {
      const ours = columnar.apply(cmd);
      const theirs = bigint.apply(cmd);
      expect(json(ours)).toBe(json(theirs));
      if (ours.ok) deals += ours.events.filter((e) => e.type === 'deal').length;
      columnar.releaseResults();
    }
    expect(columnar.coreName).toBe('columnar');
    expect(deals).toBeGreaterThan(COUNT / 8);
    expect(columnar.stateHash()).toBe(bigint.stateHash());
  });

  it('throws when a result kept past a release is read after its chunk is reused', () => {
    const { columnar, time } = engines();
    let kept: ApplyResult | undefined;
    for (const cmd of stream(COUNT, time)) {
      const result = columnar.apply(cmd);
      kept ??= result;
      columnar.releaseResults();
    }
    expect(kept?.ok).toBe(true);
    expect(() => kept?.ok && kept.events).toThrow(/releaseResults/);
  });

  it('after a release, throws for a result not read at once, and later results read their own', () => {
    const { columnar, bigint, time } = engines();
    const commands = [...stream(200, time)];
    const unread = columnar.apply(commands[0]!);
    bigint.apply(commands[0]!);
    columnar.releaseResults();
    for (const cmd of commands.slice(1)) {
      // Each result, read before the release, shows its own records (written from the chunk's
      // start again, over the previous command's).
      expect(json(columnar.apply(cmd))).toBe(json(bigint.apply(cmd)));
      columnar.releaseResults();
    }
    // Not read before the release: its records were written over, and reading them throws.
    expect(unread.ok).toBe(true);
    expect(() => unread.ok && unread.events).toThrow(/releaseResults/);
    expect(columnar.stateHash()).toBe(bigint.stateHash());
  });

  it('gives a command that writes more than a chunk a chunk of its own, then goes on', () => {
    const { columnar, bigint, time } = engines();
    let t = time;
    const both = (cmd: Command) => {
      const ours = columnar.apply(cmd);
      expect(json(ours)).toBe(json(bigint.apply(cmd)));
      columnar.releaseResults();
      return ours;
    };
    // Enough resting asks that one market buy taking them all writes more than a chunk: a fill
    // writes its deal, a balance event of four legs or more and the maker's record, over 64
    // numbers.
    const makers = (LOG_CHUNK >> 6) + 1;
    for (let i = 0; i < makers; i++) {
      both({
        type: 'order.limit',
        time: t++,
        userId: 2,
        market: MARKET,
        side: SELL,
        price: usdt(String(1000 + (i % 20))),
        amount: btc('0.001'),
        timeInForce: 'GTC',
        source: 'api',
      });
    }
    const sweep = both({
      type: 'order.market',
      time: t++,
      userId: 1,
      market: MARKET,
      side: BUY,
      amount: btc('0.001') * BigInt(makers),
      source: 'api',
    });
    expect(sweep.ok && sweep.events.filter((e) => e.type === 'deal').length).toBe(makers);
    // The usual chunks are still reused after it.
    for (const cmd of stream(4_000, t)) both(cmd);
    expect(columnar.coreName).toBe('columnar');
    expect(columnar.stateHash()).toBe(bigint.stateHash());
  });

  it('keeps every result readable without a release', () => {
    const { columnar, bigint, time } = engines();
    const kept: { ours: ApplyResult; theirs: ApplyResult }[] = [];
    for (const cmd of stream(COUNT, time)) {
      const ours = columnar.apply(cmd);
      const theirs = bigint.apply(cmd);
      if (kept.length < 10) kept.push({ ours, theirs });
    }
    for (const { ours, theirs } of kept) expect(json(ours)).toBe(json(theirs));
  });
});
