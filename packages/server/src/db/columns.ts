import { type ColumnDefinitionBuilder, type CreateTableBuilder, sql } from 'kysely';
import type { SqlDialect } from './database.js';

/**
 * Column types that differ between the dialects, for migrations. Everything else a migration
 * writes (`text`, `integer`, `bigint`, indexes, foreign keys) is the same on both.
 * See docs/decisions/storage.md.
 */
export function columnTypes(dialect: SqlDialect) {
  return {
    /** Integer minor units of an asset; write with `amountToDb`, read with `amountFromDb`. */
    amount: dialect === 'postgres' ? sql`numeric(39, 0)` : sql`text`,
    /** Raw bytes; read back as a `Buffer` on both. */
    bytes: dialect === 'postgres' ? sql`bytea` : sql`blob`,
  };
}

/**
 * Adds an auto-incrementing integer primary key named `id` (read back as a number on both
 * dialects: the PostgreSQL pool parses `bigint` into a safe integer).
 */
export function withAutoId<T extends string, C extends string>(
  table: CreateTableBuilder<T, C>,
  dialect: SqlDialect,
): CreateTableBuilder<T, C | 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'bigserial', (col: ColumnDefinitionBuilder) => col.primaryKey())
    : table.addColumn('id', 'integer', (col: ColumnDefinitionBuilder) =>
        col.primaryKey().autoIncrement(),
      );
}
