// A command that throws (only a bug does: InvariantViolation) stops the engine: every later
// command and snapshot throws, so that a state it left half changed is neither built on nor
// saved; a restore from a snapshot taken before it gives a running engine.
import { describe, expect, it } from 'vitest';
import type { LogChunk } from './columnar/logChunks.js';
import { BALANCE_HEAD, K_BALANCE, T_START } from './columnar/recordLayout.js';
import { Engine } from './engine.js';
import { InvariantViolation } from './errors.js';
import { BUY, btc, CORES, limitOrder, RESTORE_ON, SELL, TestExchange, usdt } from './fixtures.js';
import type { Accepted, Command, EngineSnapshot } from './types.js';

/**
 * A snapshot whose user 1 holds an open sell but none of its stock frozen, the stock moved to
 * available instead (the asset's total unchanged): a corruption only a bug could make. Cancelling
 * the sell then takes the frozen balance below zero, which the engine never allows.
 */
function corrupted(snapshot: EngineSnapshot): EngineSnapshot {
  const copy = JSON.parse(JSON.stringify(snapshot)) as EngineSnapshot;
  for (const row of copy.balances) {
    const [owner, kind, asset, available, frozen] = row;
    if (owner === 1 && kind === 'trade' && asset === 'BTC') {
      row[3] = (BigInt(available) + BigInt(frozen)).toString();
      row[4] = '0';
    }
  }
  return copy;
}

describe.each(CORES)('an engine on the %s core after a command throws', (core, makeEngine) => {
  it('refuses every later command and snapshot; one restored from before runs', () => {
    const x = TestExchange.standard(makeEngine());
    x.fund(1, 'BTC', btc('1'));
    x.fund(2, 'USDT', usdt('10000'));
    const sell = x.limit(1, SELL, '3000', '0.5');
    const before = x.engine.snapshot();
    const engine = RESTORE_ON[core](corrupted(before));
    expect(engine.coreName).toBe(core);
    expect(engine.halted).toBeNull();
    const time = x.time + 1;
    const cancel = { type: 'order.cancel', userId: 1, orderId: sell.id, time } as Command;
    expect(() => engine.apply(cancel)).toThrow(InvariantViolation);
    expect(engine.halted).toMatch(/negative/);
    const deposit = {
      type: 'balance.deposit',
      userId: 2,
      asset: 'USDT',
      amount: 1n,
      businessId: 'after',
      time: time + 1,
    } as Command;
    expect(() => engine.apply(deposit)).toThrow(/the engine stopped: .*negative/);
    expect(() => engine.snapshot()).toThrow(/the engine stopped: .*negative/);
    expect(() => engine.stateHash()).toThrow(/the engine stopped: .*negative/);
    const restored = Engine.restore(before);
    expect(restored.apply(cancel).ok).toBe(true);
    expect(restored.apply(deposit).ok).toBe(true);
    expect(restored.halted).toBeNull();
  });
});

describe.each(CORES)(
  'an engine on the %s core whose book a bug has crossed',
  (core, makeEngine) => {
    it('halts at the next order in that market, which checks the book after it', () => {
      const x = TestExchange.standard(makeEngine());
      x.fund(1, 'BTC', btc('1'));
      x.fund(2, 'USDT', usdt('10000'));
      x.limit(1, SELL, '3000', '0.5');
      const bid = x.limit(2, BUY, '2900', '0.5');
      // The bid's row moved to 3100, above the ask: a book no command can make.
      const snapshot = JSON.parse(JSON.stringify(x.engine.snapshot())) as EngineSnapshot;
      const row = snapshot.orders.find((r) => r[0] === bid.id)!;
      row[10] = usdt('3100').toString();
      const engine = RESTORE_ON[core](snapshot);
      expect(engine.coreName).toBe(core);
      // A sell far above both trades with nothing; the check after it finds the book crossed.
      const far = { ...limitOrder(1, SELL, '5000', '0.1'), time: x.time + 1 } as Command;
      expect(() => engine.apply(far)).toThrow(new InvariantViolation('crossed book BTC_USDT'));
      expect(engine.halted).toBe('crossed book BTC_USDT');
    });
  },
);

/**
 * A bug's trace in a sell's result: the freeze of its stock moves one unit more out of available
 * than into frozen. The freeze's record comes first, then the order's (recordLayout.ts). The
 * amount frozen, as recorded.
 */
function unbalanceFreeze(result: Accepted): bigint {
  const { chunk, at } = result as unknown as { chunk: LogChunk; at: number };
  const log = chunk.data;
  const freeze = log[at + T_START]!;
  expect(log[freeze]).toBe(K_BALANCE);
  log[freeze + BALANCE_HEAD + 3]! -= 1;
  return BigInt(log[freeze + BALANCE_HEAD + 4]!);
}

describe("an engine on the columnar core whose command's events fail a check as they are read", () => {
  it('refuses every later command and snapshot, as if the command had thrown', () => {
    const x = TestExchange.standard(new Engine());
    x.fund(1, 'BTC', btc('1'));
    const result = x.ok(limitOrder(1, SELL, '3000', '0.5'));
    expect(unbalanceFreeze(result)).toBe(btc('0.5'));
    expect(x.engine.halted).toBeNull();
    expect(() => result.events).toThrow(
      new InvariantViolation('a order_freeze movement of order 1 does not balance in BTC'),
    );
    expect(x.engine.halted).toMatch(/does not balance in BTC/);
    expect(() => x.fund(2, 'USDT', usdt('1'))).toThrow(/the engine stopped: .*does not balance/);
    expect(() => x.engine.snapshot()).toThrow(/the engine stopped/);
  });

  it('names the first failure it was told of when a second result fails too', () => {
    const x = TestExchange.standard(new Engine());
    x.fund(1, 'BTC', btc('1'));
    const results = [
      x.ok(limitOrder(1, SELL, '3000', '0.5')),
      x.ok(limitOrder(1, SELL, '3100', '0.3')),
    ];
    expect(results.map(unbalanceFreeze)).toEqual([btc('0.5'), btc('0.3')]);
    expect(() => results[1]!.events).toThrow(/movement of order 2 does not balance/);
    expect(() => results[0]!.events).toThrow(/movement of order 1 does not balance/);
    expect(x.engine.halted).toMatch(/order 2 does not balance/);
  });
});
