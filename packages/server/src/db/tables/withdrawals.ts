import type { Generated } from 'kysely';

/** Crypto withdrawals (migration 0008_withdrawals). Amounts are minor units; times in ms. */
export interface WithdrawalTables {
  withdrawals: WithdrawalsTable;
}

export interface WithdrawalsTable {
  id: Generated<number>;
  user_id: number;
  asset: string;
  network: string;
  address: string;
  memo: string;
  /** What leaves to the address. */
  amount: string;
  /** Kept by the exchange on success, on top of `amount`. */
  fee: string;
  /** A transaction status code of SPEC.md §4. */
  status: number;
  tx_hash: string | null;
  reason: string | null;
  created_at: number;
  updated_at: number;
}
