import { columnTypes } from '../columns.js';
import type { Migration } from '../migrate.js';

/**
 * Engine snapshots are stored gzip-compressed in `data_gzip` (about a seventh of the JSON), with
 * `data` left empty; rows written before keep their JSON in `data` and are read as they are.
 * See "Snapshots" in docs/decisions/engine-host.md.
 */
export const migration: Migration = {
  name: '0011_engine_snapshot_gzip',
  async up(db, dialect) {
    const { bytes } = columnTypes(dialect);
    await db.schema.alterTable('engine_snapshots').addColumn('data_gzip', bytes).execute();
  },
};
