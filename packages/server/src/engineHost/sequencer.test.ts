import { describe, expect, it } from 'vitest';
import { HostRefusal } from './errors.js';
import { type Applied, Sequencer, type SequencerOptions } from './sequencer.js';

interface Cmd {
  readonly n: number;
  readonly time: number;
}
type Batch = readonly Applied<Cmd, number, string>[];

function build(overrides: Partial<SequencerOptions<number, Cmd, number, string>> = {}) {
  const state: number[] = [];
  const committed: Batch[] = [];
  const published: Batch[] = [];
  const halts: string[] = [];
  const sequencer = new Sequencer<number, Cmd, number, string>({
    stamp: (n, time) => ({ n, time }),
    apply: (command) => {
      state.push(command.n);
      return command.n * 10;
    },
    commit: async (batch) => {
      committed.push(batch);
    },
    afterCommit: (batch) => published.push(batch),
    onHalt: (reason) => halts.push(reason),
    queueMax: 100,
    batchMax: 10,
    now: () => 1000,
    ...overrides,
  });
  return { sequencer, state, committed, published, halts };
}

describe('Sequencer', () => {
  it('applies in arrival order and groups concurrent commands into batches', async () => {
    const { sequencer, state, committed } = build();
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => sequencer.submit(i, `m${i}`)),
    );
    expect(results).toEqual(Array.from({ length: 25 }, (_, i) => i * 10));
    expect(state).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(committed.map((b) => b.length)).toEqual([10, 10, 5]);
    expect(committed[0]![3]!.meta).toBe('m3');
  });

  it('resolves a reply only after its batch committed and its events were published', async () => {
    let release: () => void = () => {};
    const order: string[] = [];
    const { sequencer } = build({
      commit: () =>
        new Promise<void>((resolve) => {
          release = () => {
            order.push('committed');
            resolve();
          };
        }),
      afterCommit: () => order.push('published'),
    });
    const reply = sequencer.submit(1, '').then(() => order.push('replied'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    release();
    await reply;
    expect(order).toEqual(['committed', 'published', 'replied']);
  });

  it('refuses with 503 when the queue is full, without applying anything', async () => {
    const { sequencer, state } = build({ queueMax: 3 });
    const accepted = [1, 2, 3].map((n) => sequencer.submit(n, ''));
    const refused = await sequencer.submit(4, '').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HostRefusal);
    expect(refused).toMatchObject({ status: 503, code: 'engine_busy', retryAfterSeconds: 1 });
    await Promise.all(accepted);
    expect(state).toEqual([1, 2, 3]);
  });

  it('halts on a failed commit: no reply is acknowledged and later commands are refused', async () => {
    const { sequencer, published, halts } = build({
      commit: async () => {
        throw new Error('disk full');
      },
    });
    const first = await sequencer.submit(1, '').catch((error: unknown) => error);
    expect(first).toMatchObject({ code: 'engine_halted' });
    expect(published).toEqual([]);
    expect(halts).toEqual(['the journal write failed: disk full']);
    await expect(sequencer.submit(2, '')).rejects.toMatchObject({ code: 'engine_halted' });
  });

  it('commits the commands before a broken invariant and refuses that one and the rest', async () => {
    const { sequencer, committed } = build({
      apply: (command) => {
        if (command.n === 3) throw new Error('negative balance');
        return command.n;
      },
    });
    const replies = await Promise.allSettled([1, 2, 3, 4].map((n) => sequencer.submit(n, '')));
    expect(replies.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
    ]);
    expect(committed.flat().map((a) => a.command.n)).toEqual([1, 2]);
    expect(sequencer.halted).toBe('invariant violated: negative balance');
  });

  it('applies commands arriving during a commit and commits them next, before replying', async () => {
    const releases: (() => void)[] = [];
    const order: string[] = [];
    const { sequencer, state } = build({
      commit: (batch) =>
        new Promise<void>((resolve) => {
          order.push(`commit ${batch.map((a) => a.command.n).join(',')}`);
          releases.push(resolve);
        }),
    });
    const first = sequencer.submit(1, '').then(() => order.push('replied 1'));
    await new Promise((resolve) => setImmediate(resolve));
    const later = [2, 3].map((n) => sequencer.submit(n, '').then(() => order.push(`replied ${n}`)));
    await new Promise((resolve) => setImmediate(resolve));
    // Applied at once, though the first batch is not durable yet.
    expect(state).toEqual([1, 2, 3]);
    expect(order).toEqual(['commit 1']);
    releases[0]!();
    await first;
    expect(order).toEqual(['commit 1', 'commit 2,3', 'replied 1']);
    releases[1]!();
    await Promise.all(later);
    expect(order).toEqual(['commit 1', 'commit 2,3', 'replied 1', 'replied 2', 'replied 3']);
  });

  it('refuses the batch applied during a commit that fails, and never commits it', async () => {
    let fail: (error: Error) => void = () => {};
    const { sequencer, committed } = build({
      commit: (batch) =>
        new Promise<void>((_resolve, reject) => {
          committed.push(batch);
          fail = reject;
        }),
    });
    const first = sequencer.submit(1, '').catch((error: unknown) => error);
    await new Promise((resolve) => setImmediate(resolve));
    const second = sequencer.submit(2, '').catch((error: unknown) => error);
    await new Promise((resolve) => setImmediate(resolve));
    fail(new Error('disk full'));
    expect(await first).toMatchObject({ code: 'engine_halted' });
    expect(await second).toMatchObject({ code: 'engine_halted' });
    expect(committed.map((batch) => batch.map((a) => a.command.n))).toEqual([[1]]);
  });

  it('never lets the command clock run backwards', async () => {
    let clock = 500;
    const { sequencer, committed } = build({ now: () => clock--, startTime: 490 });
    await Promise.all([1, 2, 3].map((n) => sequencer.submit(n, '')));
    expect(committed.flat().map((a) => a.command.time)).toEqual([500, 500, 500]);
    const late = build({ now: () => 100, startTime: 490 });
    await late.sequencer.submit(1, '');
    expect(late.committed[0]![0]!.command.time).toBe(490);
  });
});

describe('Sequencer.exclusive', () => {
  it('runs between batches, seeing exactly the committed commands', async () => {
    const { sequencer, state, committed } = build();
    await Promise.all([1, 2, 3].map((n) => sequencer.submit(n, '')));
    const seen = sequencer.exclusive(async () => {
      const atStart = [...state];
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { atStart, atEnd: [...state], batches: committed.length };
    });
    const later = [4, 5].map((n) => sequencer.submit(n, ''));
    await Promise.all(later);
    expect(await seen).toEqual({ atStart: [1, 2, 3], atEnd: [1, 2, 3], batches: 1 });
    expect(state).toEqual([1, 2, 3, 4, 5]);
  });
});
