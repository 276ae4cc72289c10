import { describe, expect, it } from 'vitest';
import type { BatchRecord } from './hostStore.js';
import { batchColumns, positionalBatch } from './sqliteBatchSql.js';

/** A row whose every column holds a value of its own, named after it. */
function rowOf(columns: readonly string[]): Record<string, string> {
  return Object.fromEntries(columns.map((column) => [column, `value of ${column}`]));
}

describe('positionalBatch', () => {
  it("lists each row's values in the order of its statement's columns", () => {
    const rows = {
      journal: rowOf(batchColumns.journal),
      order: rowOf(batchColumns.order),
      trade: rowOf(batchColumns.trade),
      balance: rowOf(batchColumns.balance),
      systemBalance: rowOf(batchColumns.systemBalance),
      history: rowOf(batchColumns.history),
    };
    const batch = {
      journal: [rows.journal],
      projections: {
        orders: [rows.order],
        trades: [rows.trade],
        balances: [rows.balance],
        systemBalances: [rows.systemBalance],
        history: [rows.history],
      },
      idempotency: [{ userId: 7, key: 'k-1', fingerprint: 'f', reply: '{}' }],
      time: 1_800_000_000_000,
    } as unknown as BatchRecord;
    const positional = positionalBatch(batch);
    for (const table of Object.keys(rows) as (keyof typeof rows)[]) {
      const row = rows[table];
      expect(positional[table], table).toEqual([batchColumns[table].map((column) => row[column])]);
    }
    const key = { user_id: 7, key: 'k-1', fingerprint: 'f', reply: '{}', created_at: batch.time };
    expect(positional.key).toEqual([
      batchColumns.key.map((column) => key[column as keyof typeof key]),
    ]);
  });
});
