import type { Kysely } from 'kysely';
import type { AuthTables } from './tables/auth.js';
import type { ChainTables } from './tables/chains.js';
import type { EngineHostTables } from './tables/engineHost.js';
import type { MarketDataTables } from './tables/marketData.js';
import type { ReferenceTables } from './tables/reference.js';
import type { UserTables } from './tables/users.js';
import type { VoucherTables } from './tables/vouchers.js';
import type { WhitelistTables } from './tables/whitelist.js';
import type { WithdrawalTables } from './tables/withdrawals.js';

/**
 * Every table the server reads or writes, one interface per concern. A new concern adds its
 * table interfaces in `tables/` and one name to this `extends` list.
 */
export interface Database
  extends ReferenceTables,
    UserTables,
    AuthTables,
    EngineHostTables,
    MarketDataTables,
    ChainTables,
    VoucherTables,
    WithdrawalTables,
    WhitelistTables {}

/** The query builder over the server's database (SQLite or PostgreSQL). */
export type Db = Kysely<Database>;

export type SqlDialect = 'sqlite' | 'postgres';
