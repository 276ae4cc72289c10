import type { AccountKind, Engine } from '@lattice/engine';
import { amountFromDb } from '../db/amount.js';
import type { Db } from '../db/database.js';
import { accountKindFrom } from './projections.js';

/** The engine's queries reconciliation reads. */
export type ReconciledEngine = Pick<Engine, 'balances' | 'assetTotals'>;

const problemsListedMax = 20;

/**
 * Compares the projection tables with the journal-derived state (the engine) and returns what
 * differs, empty when they agree: every stored balance equals the engine's; per asset, the
 * stored balances add up to the engine's total; and that total equals what came in minus what
 * went out (deposits minus withdrawals), both as the engine counts them and as the stored
 * `external` account records them. Must run while no batch is being applied.
 */
export async function reconcile(db: Db, engine: ReconciledEngine): Promise<string[]> {
  const problems: string[] = [];
  const storedTotals = new Map<string, bigint>();
  const addTotal = (asset: string, amount: bigint) =>
    storedTotals.set(asset, (storedTotals.get(asset) ?? 0n) + amount);

  const rows = await db
    .selectFrom('balances')
    .select(['user_id', 'asset', 'account', 'available', 'frozen'])
    .execute();
  const cache = new Map<number, ReturnType<ReconciledEngine['balances']>>();
  for (const row of rows) {
    let balances = cache.get(row.user_id);
    if (balances === undefined) {
      balances = engine.balances(row.user_id);
      cache.set(row.user_id, balances);
    }
    const account: AccountKind = accountKindFrom(row.account);
    const expected = balances[row.asset]?.[account] ?? { available: 0n, frozen: 0n };
    const available = amountFromDb(row.available);
    const frozen = amountFromDb(row.frozen);
    if (available !== expected.available || frozen !== expected.frozen) {
      problems.push(
        `user ${row.user_id} ${row.asset} ${account}: stored ${available}/${frozen}, journal ${expected.available}/${expected.frozen} (available/frozen)`,
      );
    }
    addTotal(row.asset, available + frozen);
  }

  // The `external` account is the outside world: its balance is minus what came in (deposits)
  // plus what went out (withdrawals), recorded independently of the users' rows.
  const externalTotals = new Map<string, bigint>();
  const systemRows = await db
    .selectFrom('system_balances')
    .select(['owner', 'asset', 'available', 'frozen'])
    .execute();
  for (const row of systemRows) {
    const amount = amountFromDb(row.available) + amountFromDb(row.frozen);
    if (row.owner === 'external') {
      externalTotals.set(row.asset, (externalTotals.get(row.asset) ?? 0n) + amount);
    } else {
      addTotal(row.asset, amount);
    }
  }

  for (const total of engine.assetTotals()) {
    const stored = storedTotals.get(total.asset) ?? 0n;
    if (stored !== total.total) {
      problems.push(`${total.asset}: stored balances add up to ${stored}, journal ${total.total}`);
    }
    const net = total.deposited - total.withdrawn;
    if (total.total !== net) {
      problems.push(
        `${total.asset}: balances add up to ${total.total}, deposits minus withdrawals are ${net}`,
      );
    }
    const storedNet = -(externalTotals.get(total.asset) ?? 0n);
    if (storedNet !== net) {
      problems.push(
        `${total.asset}: stored deposits minus withdrawals are ${storedNet}, journal ${net}`,
      );
    }
    storedTotals.delete(total.asset);
  }
  for (const [asset, stored] of storedTotals) {
    if (stored !== 0n) problems.push(`${asset}: stored balances of ${stored} for an unknown asset`);
  }
  if (problems.length > problemsListedMax) {
    const more = problems.length - problemsListedMax;
    return [...problems.slice(0, problemsListedMax), `and ${more} more`];
  }
  return problems;
}
