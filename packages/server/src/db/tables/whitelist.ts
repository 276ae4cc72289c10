import type { Generated } from 'kysely';

/** The withdrawal whitelist (migration 0009_whitelist). Times are Unix milliseconds. */
export interface WhitelistTables {
  whitelist_addresses: WhitelistAddressesTable;
  whitelist_mode: WhitelistModeTable;
}

export interface WhitelistAddressesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  asset: string;
  address: string;
  memo: string;
  created_at: number;
}

/** A row means the user withdraws only to saved addresses. */
export interface WhitelistModeTable {
  user_id: number;
  enabled_at: number;
}
