import type { Generated } from 'kysely';

/**
 * Crypto withdrawals (migrations 0008_withdrawals, 0010_withdrawal_lifecycle). Amounts are
 * minor units; times in ms.
 */
export interface WithdrawalTables {
  withdrawals: WithdrawalsTable;
  withdrawal_fee_rules: WithdrawalFeeRulesTable;
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
  /** SHA-256 hex of the e-mail confirmation token while status 5 waits for it (0010). */
  confirm_token_hash: string | null;
  confirm_expires_at: number | null;
  /** 1 when the amount was above the operator threshold: status 6 after the user confirms. */
  needs_review: Generated<number>;
  /** When the engine completed or released the hold; null while it is open or not placed. */
  hold_settled_at: number | null;
}

/** The flex part of a currency fee per asset and network (migration 0010). */
export interface WithdrawalFeeRulesTable {
  asset: string;
  network: string;
  /** Parts per million of the amount. */
  flex_percent_ppm: number;
  flex_min: string;
  /** 0: no maximum. */
  flex_max: string;
}
