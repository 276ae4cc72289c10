import { type Command, commandToJson, Engine } from '@lattice/engine';
import { describe, expect, it } from 'vitest';
import type { EngineJournalTable } from '../db/tables/engineHost.js';
import type { HostCommand } from './engineHost.js';
import { fixtureSetup, fundedUserCommands, limitOrder, oneBtc, oneUsdt } from './hostFixtures.js';
import { ReplicaDivergence, ReplicaEngine } from './replicaEngine.js';
import { SnapshotReplica } from './snapshotReplica.js';
import { storedSnapshotBytes } from './snapshots.js';
import { readStoredSnapshotText } from './storedSnapshotText.js';

/** Commands applied to a primary engine, and their journal rows as the host writes them. */
function journaled(commands: readonly HostCommand[], engine = new Engine(), firstSeq = 1) {
  const rows: EngineJournalTable[] = [];
  for (const input of commands) {
    const command = { ...input, time: 1_000 + firstSeq + rows.length } as Command;
    if (!engine.apply(command).ok) throw new Error(`${command.type} refused`);
    rows.push({
      seq: firstSeq + rows.length,
      time: command.time,
      type: command.type,
      command: JSON.stringify(commandToJson(command)),
      event_seq_end: engine.lastEventSeq,
    });
  }
  return { engine, rows };
}

function entriesOf(rows: readonly EngineJournalTable[]) {
  return {
    firstSeq: rows[0]?.seq ?? 1,
    commands: rows.map((row) => row.command),
    eventSeqEnds: rows.map((row) => row.event_seq_end),
  };
}

const trading: HostCommand[] = [
  ...fixtureSetup,
  ...fundedUserCommands(1, 10n * oneBtc, 100_000n * oneUsdt),
  ...fundedUserCommands(2, 10n * oneBtc, 100_000n * oneUsdt),
  limitOrder(1, 1, 3_000_000, 20),
  limitOrder(2, 2, 3_000_000, 5),
  limitOrder(2, 2, 2_900_000, 7),
];

describe('ReplicaEngine', () => {
  it('follows the journal to the primary state, from nothing and from a snapshot', async () => {
    const { engine, rows } = journaled(trading);
    const replica = ReplicaEngine.restore(0, null);
    replica.append(entriesOf(rows.slice(0, 5)));
    replica.append(entriesOf(rows.slice(5)));
    expect(replica.lastJournalSeq).toBe(rows.length);
    const row = await replica.snapshotRow(7);
    const text = await storedSnapshotBytes(row.gzip);
    expect(row).toMatchObject({ journal_seq: rows.length, event_seq: engine.lastEventSeq });
    expect(row.state_hash).toBe(engine.stateHash());
    expect(readStoredSnapshotText(text).stateHash).toBe(row.state_hash);

    const more = journaled([limitOrder(1, 1, 2_950_000, 3)], engine, rows.length + 1);
    const restored = ReplicaEngine.restore(rows.length, text);
    restored.append(entriesOf(more.rows));
    expect((await restored.snapshotRow(8)).state_hash).toBe(engine.stateHash());
  });

  it('stops at an entry that is missing, refused, or reaches another event number', () => {
    const { rows } = journaled(trading);
    const gap = ReplicaEngine.restore(0, null);
    expect(() => gap.append(entriesOf(rows.slice(1)))).toThrow(ReplicaDivergence);
    expect(() => gap.append(entriesOf(rows.slice(1)))).toThrow(/entry 2 arrived after 0/);

    const differs = ReplicaEngine.restore(0, null);
    const entries = entriesOf(rows);
    const eventSeqEnds = [...entries.eventSeqEnds];
    eventSeqEnds[4] = (eventSeqEnds[4] ?? 0) + 1;
    expect(() => differs.append({ ...entries, eventSeqEnds })).toThrow(/reached event/);
    expect(differs.lastJournalSeq).toBe(4);

    const refused = ReplicaEngine.restore(0, null);
    // The first entry again, as entry 2: the asset exists already.
    expect(() => refused.append(entriesOf(rows.slice(0, 1).concat(rows.slice(0, 1))))).toThrow(
      /journal entry 2 was refused/,
    );
  });
});

describe('SnapshotReplica (worker thread)', () => {
  it('snapshots the state after the entries appended before the request', async () => {
    const { engine, rows } = journaled(trading);
    const replica = new SnapshotReplica(() => {});
    try {
      replica.restore(0, null);
      replica.append(rows);
      const { row } = await replica.snapshot(9);
      expect(row).toMatchObject({
        journal_seq: rows.length,
        event_seq: engine.lastEventSeq,
        state_hash: engine.stateHash(),
        created_at: 9,
      });
      expect(readStoredSnapshotText(await storedSnapshotBytes(row.gzip)).stateHash).toBe(
        row.state_hash,
      );
    } finally {
      await replica.close();
    }
  });

  it('stops for good when an entry diverges, and takes no snapshot after', async () => {
    const { rows } = journaled(trading);
    const failures: Error[] = [];
    let stopped = () => {};
    const replica = new SnapshotReplica((error) => {
      failures.push(error);
      stopped();
    });
    try {
      const failed = new Promise<void>((resolve) => {
        stopped = resolve;
      });
      replica.restore(0, null);
      replica.append(
        rows.map((row) => (row.seq === 4 ? { ...row, event_seq_end: row.event_seq_end + 1 } : row)),
      );
      await expect(replica.snapshot(1)).rejects.toThrow(/journal entry 4 reached event/);
      await failed;
      expect(failures.map(String)).toEqual([expect.stringMatching(/ReplicaDivergence/)]);
      expect(replica.failure).not.toBeNull();
      await expect(replica.snapshot(2)).rejects.toThrow(/journal entry 4/);
    } finally {
      await replica.close();
    }
  });
});
