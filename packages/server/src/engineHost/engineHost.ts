import {
  type Accepted,
  type ApplyResult,
  type Command,
  commandToJson,
  type Engine,
  type EngineEvent,
} from '@lattice/engine';
import type { EngineJournalTable } from '../db/tables/engineHost.js';
import { type EventBus, InProcessEventBus } from './eventBus.js';
import type { HostLogger } from './hostLogger.js';
import type { HostStore } from './hostStore.js';
import {
  fingerprintOf,
  IdempotencyGate,
  type IdempotencyKey,
  idempotencyKeyLengthMax,
} from './idempotency.js';
import { projectionRowsFrom } from './projections.js';
import { reconcile } from './reconcile.js';
import { type Recovered, recoverEngine } from './recovery.js';
import { type Applied, Sequencer } from './sequencer.js';
import { feedingReplica, SnapshotReplica } from './snapshotReplica.js';
import { SnapshotSchedule } from './snapshotSchedule.js';
import type { SnapshotPolicy } from './snapshots.js';
import { replyFromStored, storedFromReply } from './storedReply.js';

type WithoutTime<T> = T extends unknown ? Omit<T, 'time'> : never;
/** A command as submitted: the host stamps its clock on it. */
export type HostCommand = WithoutTime<Command>;

/** The engine's read-only queries; only the host applies commands. */
export type EngineReader = Pick<
  Engine,
  | 'balances'
  | 'order'
  | 'openOrders'
  | 'depth'
  | 'lastPrice'
  | 'markets'
  | 'assets'
  | 'limits'
  | 'assetTotals'
  | 'openFreezes'
  | 'stateHash'
  | 'lastEventSeq'
  | 'coreName'
  | 'halted'
>;

export interface EngineHostOptions {
  readonly store: HostStore;
  readonly logger: HostLogger;
  readonly bus?: EventBus<EngineEvent>;
  /** Commands waiting at most; more are refused with 503 (default 10,000). */
  readonly queueMax?: number;
  /** Commands per transaction at most (default 2,000). */
  readonly batchMax?: number;
  readonly snapshots?: Partial<SnapshotPolicy>;
  /** How often balances are reconciled with the projections (default 5 minutes; 0 never). */
  readonly reconcileEveryMs?: number;
  readonly now?: () => number;
}

/** A client's idempotency key for one command. */
export interface ClientKey {
  readonly userId: number;
  readonly key: string;
}

interface Meta {
  readonly idempotency?: IdempotencyKey;
}

interface Outcome {
  readonly result: ApplyResult;
  readonly eventSeqEnd: number;
}

const idempotencyKeepMs = 24 * 60 * 60_000;

/**
 * The only code that applies commands to the engine. It recovers the engine from the newest
 * snapshot and the journal, sequences every command through one queue, makes each batch durable
 * (journal, projections and idempotency records in one transaction) before replying and
 * publishing its events, feeds each committed batch to a replica engine in a worker thread
 * that takes the periodic snapshots, and halts on a broken invariant, a failed commit or a
 * failed reconciliation.
 */
export class EngineHost {
  readonly bus: EventBus<EngineEvent>;
  private readonly sequencer: Sequencer<HostCommand, Command, Outcome, Meta>;
  private readonly gate = new IdempotencyGate<ApplyResult>();
  private readonly snapshots: SnapshotSchedule;
  private readonly now: () => number;
  private readonly timers: NodeJS.Timeout[] = [];
  private journalSeq: number;
  private readonly knownUsers = new Set<number>();
  /** The engine's core as last logged (at recovery, then at each change). */
  private loggedCore: Engine['coreName'];

  private constructor(
    private readonly engineState: Engine,
    private readonly options: EngineHostOptions,
    private readonly replica: SnapshotReplica,
    recovered: { journalSeq: number; lastTime: number; snapshotSeq: number },
  ) {
    const { logger } = options;
    this.bus =
      options.bus ??
      new InProcessEventBus((error) => logger.error({ err: error }, 'event subscriber failed'));
    this.now = options.now ?? Date.now;
    this.journalSeq = recovered.journalSeq;
    this.snapshots = new SnapshotSchedule({
      store: options.store,
      logger,
      replica,
      policy: options.snapshots,
      now: this.now,
      journalSeq: () => this.journalSeq,
      halted: () => this.sequencer.halted,
      snapshotSeq: recovered.snapshotSeq,
    });
    this.loggedCore = engineState.coreName;
    this.sequencer = new Sequencer({
      // NOTE: not `{ ...input, time }`: on Node 20 a property added to an object spread's copy
      // took about 1.6 us a command, the copy by Object.assign and the addition about 0.08 us
      // (the same holds for the idempotency records below).
      stamp: (input, time) => {
        const command = Object.assign({}, input) as Command;
        command.time = time;
        return command;
      },
      apply: (command) => {
        const result = this.engineState.apply(command);
        // Its events and reply are read now, not when the batch commits, so that the engine
        // may reuse the memory behind every result so far (Engine.releaseResults).
        if (result.ok) readEventsAndReply(result);
        this.engineState.releaseResults();
        return { result, eventSeqEnd: this.engineState.lastEventSeq };
      },
      commit: (batch) => this.commit(batch),
      afterCommit: (batch) => this.afterCommit(batch),
      onHalt: (reason, error) =>
        logger.error({ reason, err: error }, 'engine host halted: commands are refused'),
      queueMax: options.queueMax ?? 10_000,
      batchMax: options.batchMax ?? 2_000,
      now: this.now,
      startTime: recovered.lastTime,
    });
  }

  /** Recovers the engine, reconciles, and starts the periodic snapshot and reconciliation. */
  static async open(options: EngineHostOptions): Promise<EngineHost> {
    const started = performance.now();
    const replica = new SnapshotReplica((error) =>
      options.logger.error(
        { err: error },
        'engine replica stopped: no snapshots until a restart (the journal holds every command)',
      ),
    );
    let recovered: Recovered;
    try {
      recovered = await recoverEngine(feedingReplica(options.store, replica), options.logger);
    } catch (error) {
      await replica.close();
      throw error;
    }
    const host = new EngineHost(recovered.engine, options, replica, recovered);
    options.logger.info(
      {
        journalSeq: recovered.journalSeq,
        snapshotSeq: recovered.snapshotSeq,
        replayed: recovered.replayed,
        // Which of the engine's cores runs (docs/decisions/columnar-engine.md).
        core: recovered.engine.coreName,
        ms: Math.round(performance.now() - started),
      },
      'engine recovered',
    );
    await host.reconcileNow();
    if (recovered.replayed >= host.snapshots.policy.everyCommands) {
      void host.snapshots.takeWhenIdle();
    }
    host.startTimers();
    return host;
  }

  /** The engine's current state, for queries. */
  get engine(): EngineReader {
    return this.engineState;
  }

  /** Why commands are refused, or null while the host runs. */
  get halted(): string | null {
    return this.sequencer.halted;
  }

  /** The last journal entry made durable. */
  get lastJournalSeq(): number {
    return this.journalSeq;
  }

  /**
   * Applies a command and resolves once it is durable. With a client key, a repeat resolves
   * with the first result (no new events) and the key reused for another command is a 409.
   * Rejects only with a `HostRefusal` (busy, halted, key reused).
   */
  submit(command: HostCommand, clientKey?: ClientKey): Promise<ApplyResult> {
    if (!clientKey) return this.sequencer.submit(command, {}).then((outcome) => outcome.result);
    if (clientKey.key.length === 0 || clientKey.key.length > idempotencyKeyLengthMax) {
      throw new RangeError(`an idempotency key has 1 to ${idempotencyKeyLengthMax} characters`);
    }
    const idempotency = Object.assign({}, clientKey, { fingerprint: fingerprintOf(command) });
    return this.gate.run(
      idempotency,
      async () => {
        const row = await this.options.store.idempotencyRecord(clientKey.userId, clientKey.key);
        return row && { fingerprint: row.fingerprint, reply: replyFromStored(row.reply) };
      },
      () => this.sequencer.submit(command, { idempotency }).then((outcome) => outcome.result),
    );
  }

  /**
   * Makes the engine know a user before their first command. `user.add` is a no-op for a known
   * user; it is skipped for a user with balances (certainly known) and for one this process
   * already added.
   */
  async ensureUser(userId: number): Promise<void> {
    if (this.knownUsers.has(userId)) return;
    if (Object.keys(this.engineState.balances(userId)).length > 0) {
      this.knownUsers.add(userId);
      return;
    }
    const result = await this.submit({ type: 'user.add', userId });
    if (!result.ok) throw new RangeError(`user ${userId} cannot be added: ${result.message}`);
    this.knownUsers.add(userId);
  }

  /** Stops accepting commands (an operator's or a check's decision); the reason is logged. */
  halt(reason: string): void {
    this.sequencer.halt(reason);
  }

  /** Compares projections with the engine; on a mismatch halts and returns the differences. */
  async reconcileNow(): Promise<string[]> {
    const problems = await this.sequencer.exclusive(() =>
      reconcile(this.options.store.db, this.engineState),
    );
    if (problems.length > 0) {
      this.options.logger.error({ problems }, 'reconciliation failed');
      this.sequencer.halt(`reconciliation failed: ${problems.join('; ')}`);
    }
    return problems;
  }

  /**
   * Resolves once a snapshot of the journal position at the call is written (at once when
   * nothing changed since the last, or the host is halted, or its replica stopped). A failed
   * snapshot is logged, not thrown: the journal still holds everything.
   */
  snapshotNow(): Promise<void> {
    return this.snapshots.takeNow();
  }

  /**
   * The first step of closing: stops taking snapshots on its own and waits for the one being
   * written, if any. Other modules write their last state as the app closes, on the main
   * connection; they must not wait there, with the event loop blocked, behind a snapshot's
   * write lock (a snapshot held open until a timer on that event loop fires never ends).
   */
  async settleSnapshots(): Promise<void> {
    const settled = this.snapshots.settle();
    for (const timer of this.timers) clearInterval(timer);
    await settled;
  }

  /**
   * Waits for queued commands, stops the timers, snapshots what changed since the last
   * snapshot (so that the next start replays little), stops the replica and closes the store.
   */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.sequencer.whenIdle();
    await this.snapshotNow();
    await this.replica.close();
    await this.options.store.close();
  }

  private async commit(batch: readonly Applied<Command, Outcome, Meta>[]): Promise<void> {
    const journal: EngineJournalTable[] = [];
    const events: EngineEvent[] = [];
    const idempotency = [];
    let seq = this.journalSeq;
    for (const { command, result, meta } of batch) {
      if (result.result.ok) {
        seq++;
        journal.push({
          seq,
          time: command.time,
          type: command.type,
          command: JSON.stringify(commandToJson(command)),
          event_seq_end: result.eventSeqEnd,
        });
        for (const event of result.result.events) events.push(event);
      }
      if (meta.idempotency) {
        const reply = storedFromReply(result.result);
        idempotency.push(Object.assign({}, meta.idempotency, { reply }));
      }
    }
    const time = batch[batch.length - 1]?.command.time ?? this.now();
    await this.options.store.commitBatch({
      journal,
      projections: projectionRowsFrom(events),
      idempotency,
      time,
    });
    this.journalSeq = seq;
    this.replica.append(journal);
  }

  private afterCommit(batch: readonly Applied<Command, Outcome, Meta>[]): void {
    const events: EngineEvent[] = [];
    for (const { result } of batch) {
      if (result.result.ok) for (const event of result.result.events) events.push(event);
    }
    this.bus.publish(events);
    this.noteCoreChange();
    this.snapshots.afterCommit();
  }

  /**
   * Says when the engine moves between its cores: on the bigint core every command is several
   * times slower (docs/decisions/columnar-engine.md), which an operator sees in the figures and
   * wants a reason for.
   */
  private noteCoreChange(): void {
    const core = this.engineState.coreName;
    if (core === this.loggedCore) return;
    this.loggedCore = core;
    const where = { core, journalSeq: this.journalSeq };
    if (core === 'bigint') {
      this.options.logger.warn(
        { ...where, commandsBeforeReturn: this.engineState.commandsBeforeReturn },
        'engine handed its state to the bigint core: a command did not fit the columnar core',
      );
    } else {
      this.options.logger.info(where, 'engine back on the columnar core');
    }
  }

  private startTimers(): void {
    const every = (ms: number, task: () => Promise<unknown>) => {
      if (ms <= 0) return;
      this.timers.push(setInterval(() => void task(), ms).unref());
    };
    every(this.snapshots.policy.everyMs, () => this.snapshots.takeWhenIdle());
    every(this.options.reconcileEveryMs ?? 5 * 60_000, () => this.reconcileNow());
    every(60 * 60_000, () =>
      this.options.store.deleteIdempotencyBefore(this.now() - idempotencyKeepMs),
    );
  }
}

/**
 * Reads an accepted command's events and reply: the engine may make them on first read from
 * memory it reuses after Engine.releaseResults, and keeps them once made.
 */
function readEventsAndReply(result: Accepted): void {
  void result.events;
  void result.result;
}
