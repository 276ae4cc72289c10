import { commandFromJson, Engine } from '@lattice/engine';
import { amountFromDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import { valueFromTaggedJson } from '../taggedJson.js';
import type { SentCommand } from './crashWorkload.js';

/** What the stored journal rebuilds to in a fresh engine. */
export interface CleanReplay {
  readonly journalSeq: number;
  readonly stateHash: string;
  readonly totals: Map<string, bigint>;
}

/** Replays the whole journal into a new engine, as a recovery without snapshots would. */
export async function replayJournal(db: Db): Promise<CleanReplay> {
  const rows = await db.selectFrom('engine_journal').selectAll().orderBy('seq').execute();
  const engine = new Engine();
  rows.forEach((row, index) => {
    if (row.seq !== index + 1) throw new Error(`journal gap before ${row.seq}`);
    const result = engine.apply(commandFromJson(JSON.parse(row.command)));
    if (!result.ok) throw new Error(`journal entry ${row.seq} refused on replay: ${result.code}`);
  });
  return {
    journalSeq: rows.length,
    stateHash: engine.stateHash(),
    totals: new Map(engine.assetTotals().map((total) => [total.asset, total.total])),
  };
}

/**
 * Checks every definitive answer the clients received against the database: each acknowledged
 * command is recorded exactly once, each refused one left no trace. Returns the problems found.
 */
export async function checkAnswers(db: Db, sent: readonly SentCommand[]): Promise<string[]> {
  const problems: string[] = [];
  const keys = await db
    .selectFrom('idempotency_keys')
    .select(['user_id', 'key', 'reply'])
    .execute();
  const stored = new Map(keys.map((row) => [`${row.user_id}:${row.key}`, row.reply]));
  const orders = new Map(
    (await db.selectFrom('orders').select(['id', 'user_id', 'finish_reason']).execute()).map(
      (row) => [row.id, row],
    ),
  );
  const history = await db
    .selectFrom('balance_history')
    .select('business_id')
    .where('business_id', 'like', 'transfer:%')
    .execute();
  const legsByBusinessId = new Map<string, number>();
  for (const row of history) {
    const id = row.business_id ?? '';
    legsByBusinessId.set(id, (legsByBusinessId.get(id) ?? 0) + 1);
  }

  for (const command of sent) {
    const reply = stored.get(`${command.userId}:${command.key}`);
    const accepted = reply !== undefined && (valueFromTaggedJson(reply) as { ok: boolean }).ok;
    const legs = legsByBusinessId.get(`transfer:${command.userId}:${command.key}`) ?? 0;
    const what = `${command.key} (${command.status})`;
    if (command.acknowledged) {
      if (!accepted) problems.push(`${what}: acknowledged but not recorded`);
      if (command.kind === 'transfer' && legs !== 2) problems.push(`${what}: ${legs} legs, not 2`);
      if (command.kind !== 'transfer') {
        const order = command.orderId === undefined ? undefined : orders.get(command.orderId);
        if (order?.user_id !== command.userId) problems.push(`${what}: its order is missing`);
        if (command.kind === 'cancel' && order?.finish_reason !== 1) {
          problems.push(`${what}: acknowledged cancel, order not cancelled`);
        }
      }
    } else {
      if (accepted) problems.push(`${what}: refused but recorded as accepted`);
      if (legs !== 0) problems.push(`${what}: refused transfer moved funds`);
    }
  }
  problems.push(...(await checkJournalCounts(db)));
  return problems;
}

/**
 * Each applied command carried a key, so journal entries of each kind must equal the accepted
 * records of that kind: one more entry would be a command applied twice (or without a key).
 */
async function checkJournalCounts(db: Db): Promise<string[]> {
  const journal = await db.selectFrom('engine_journal').select(['type', 'command']).execute();
  const records = await db.selectFrom('idempotency_keys').select(['key', 'reply']).execute();
  const accepted = (kind: string) =>
    records.filter(
      (row) =>
        row.key.includes(`-${kind}-`) && (valueFromTaggedJson(row.reply) as { ok: boolean }).ok,
    ).length;
  const entries = (
    type: string,
    filter: (command: Record<string, unknown>) => boolean = () => true,
  ) => journal.filter((row) => row.type === type && filter(JSON.parse(row.command))).length;
  const problems: string[] = [];
  const pairs: [string, number, number][] = [
    ['order', entries('order.limit'), accepted('order')],
    ['cancel', entries('order.cancel'), accepted('cancel')],
    [
      'transfer',
      entries('balance.transfer', (command) => String(command.businessId).startsWith('transfer:')),
      accepted('transfer'),
    ],
  ];
  for (const [kind, inJournal, recorded] of pairs) {
    if (inJournal !== recorded) {
      problems.push(`${kind}: ${inJournal} journal entries, ${recorded} accepted commands`);
    }
  }
  return problems;
}

/** Per asset, the stored balances of every account but the outside world's. */
export async function storedTotals(db: Db): Promise<Map<string, bigint>> {
  const totals = new Map<string, bigint>();
  const add = (asset: string, amount: bigint) =>
    totals.set(asset, (totals.get(asset) ?? 0n) + amount);
  for (const row of await db
    .selectFrom('balances')
    .select(['asset', 'available', 'frozen'])
    .execute()) {
    add(row.asset, amountFromDb(row.available) + amountFromDb(row.frozen));
  }
  const system = await db
    .selectFrom('system_balances')
    .select(['asset', 'available', 'frozen'])
    .where('owner', '!=', 'external')
    .execute();
  for (const row of system) add(row.asset, amountFromDb(row.available) + amountFromDb(row.frozen));
  return totals;
}
