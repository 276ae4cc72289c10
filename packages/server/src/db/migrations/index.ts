import type { Migration } from '../migrate.js';
import { migration as m0001 } from './0001_reference_data.js';
import { migration as m0002 } from './0002_users.js';
import { migration as m0003 } from './0003_auth.js';
import { migration as m0004 } from './0004_engine_host.js';
import { migration as m0005 } from './0005_market_data.js';
import { migration as m0006 } from './0006_chains_deposits.js';
import { migration as m0007 } from './0007_vouchers.js';
import { migration as m0008 } from './0008_withdrawals.js';
import { migration as m0009 } from './0009_whitelist.js';
import { migration as m0010 } from './0010_withdrawal_lifecycle.js';
import { migration as m0011 } from './0011_engine_snapshot_gzip.js';

/**
 * Every migration, in order. To add one: create `NNNN_concern.ts` (next free number, one
 * concern per file) exporting `migration`, and add it at the end of this list.
 */
export const migrations: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
];
