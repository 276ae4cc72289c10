import type { VoucherStatus } from '@lattice/contracts';
import type { Generated } from 'kysely';

/** Transfer codes (migration 0007_vouchers). Amounts are minor units as strings; times in ms. */
export interface VoucherTables {
  vouchers: VouchersTable;
}

export interface VouchersTable {
  id: Generated<number>;
  code: string;
  /** The creator, whose funds are frozen while the code is active. */
  user_id: number;
  asset: string;
  amount: string;
  status: VoucherStatus;
  /** The user credited; null until redeemed. */
  activated_by: number | null;
  created_at: number;
  /** When the code was redeemed or cancelled. */
  finished_at: number | null;
}
