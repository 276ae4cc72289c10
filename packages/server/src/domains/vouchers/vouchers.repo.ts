import { amountToDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import type { VouchersTable } from '../../db/tables/vouchers.js';

export type VoucherRow = Omit<VouchersTable, 'id'> & { id: number };

/** Records a code whose amount the engine has just frozen. */
export async function insertVoucher(
  db: Db,
  row: { code: string; userId: number; asset: string; amount: bigint; now: number },
): Promise<void> {
  await db
    .insertInto('vouchers')
    .values({
      code: row.code,
      user_id: row.userId,
      asset: row.asset,
      amount: amountToDb(row.amount),
      status: 'active',
      activated_by: null,
      created_at: row.now,
      finished_at: null,
    })
    .execute();
}

export function findVoucher(db: Db, code: string) {
  return db
    .selectFrom('vouchers')
    .selectAll()
    .where('code', '=', code)
    .executeTakeFirst() as Promise<VoucherRow | undefined>;
}

/**
 * Moves an active code to `activated` (by `userId`) or `canceled`, in one conditional update:
 * of any number of concurrent callers exactly one sees `true`.
 */
export async function finishVoucher(
  db: Db,
  code: string,
  change: { status: 'activated'; activatedBy: number } | { status: 'canceled'; ownerId: number },
  now: number,
): Promise<boolean> {
  let query = db
    .updateTable('vouchers')
    .set({
      status: change.status,
      activated_by: change.status === 'activated' ? change.activatedBy : null,
      finished_at: now,
    })
    .where('code', '=', code)
    .where('status', '=', 'active');
  query =
    change.status === 'activated'
      ? query.where('user_id', '<>', change.activatedBy)
      : query.where('user_id', '=', change.ownerId);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Puts a code back to active after the engine refused to settle it (never expected). */
export async function reopenVoucher(db: Db, code: string): Promise<void> {
  await db
    .updateTable('vouchers')
    .set({ status: 'active', activated_by: null, finished_at: null })
    .where('code', '=', code)
    .execute();
}

export type VoucherListKind = 'my' | 'history';

/**
 * One page of a user's codes, newest first. `my`: the codes they created that are still
 * active; `history`: every code they created or redeemed.
 */
export async function listVouchers(
  db: Db,
  userId: number,
  kind: VoucherListKind,
  filter: { ticker?: string | undefined; offset: number; limit: number },
): Promise<{ rows: VoucherRow[]; total: number }> {
  let base = db.selectFrom('vouchers');
  base =
    kind === 'my'
      ? base.where('user_id', '=', userId).where('status', '=', 'active')
      : base.where((eb) => eb.or([eb('user_id', '=', userId), eb('activated_by', '=', userId)]));
  if (filter.ticker !== undefined) base = base.where('asset', '=', filter.ticker);
  const rows = (await base
    .selectAll()
    .orderBy('id', 'desc')
    .offset(filter.offset)
    .limit(filter.limit)
    .execute()) as VoucherRow[];
  const counted = await base
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  return { rows, total: Number(counted?.n ?? 0) };
}
