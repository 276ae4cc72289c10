import type { Generated } from 'kysely';

/**
 * Chains and deposits (migration 0006_chains_deposits). Amount columns are integer minor units
 * as strings; times are Unix milliseconds; a memo is '' when there is none.
 */
export interface ChainTables {
  sim_chain_blocks: SimChainBlocksTable;
  sim_chain_transfers: SimChainTransfersTable;
  chain_scan_cursors: ChainScanCursorsTable;
  deposit_addresses: DepositAddressesTable;
  deposits: DepositsTable;
}

/** The tip of a simulated chain. */
export interface SimChainBlocksTable {
  network: string;
  height: number;
  time: number;
}

/** A transfer recorded on a simulated chain, in the block of `block_height`. */
export interface SimChainTransfersTable {
  network: string;
  tx_hash: string;
  output: number;
  asset: string;
  address: string;
  memo: string;
  amount: string;
  block_height: number;
  created_at: number;
}

/** The last block of a network whose transfers the deposit watcher has recorded. */
export interface ChainScanCursorsTable {
  network: string;
  height: number;
}

export interface DepositAddressesTable {
  id: Generated<number>;
  user_id: number;
  network: string;
  address: string;
  memo: string;
  created_at: number;
}

export interface DepositsTable {
  id: Generated<number>;
  user_id: number;
  asset: string;
  network: string;
  tx_hash: string;
  output: number;
  address: string;
  memo: string;
  amount: string;
  block_height: number;
  confirmations_required: number;
  /** 2 pending, 3 successful (SPEC.md §4 transaction statuses). */
  status: number;
  created_at: number;
  credited_at: number | null;
}
