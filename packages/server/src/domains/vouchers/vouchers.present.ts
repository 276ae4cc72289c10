import { amountToDecimal, type VoucherJson } from '@lattice/contracts';
import { amountFromDb } from '../../db/amount.js';
import type { VoucherRow } from './vouchers.repo.js';

/** A code as its creator or redeemer sees it. */
export function presentVoucher(row: VoucherRow, decimals: number, viewerId: number): VoucherJson {
  return {
    date: Number(row.created_at) / 1000,
    code: row.code,
    ticker: row.asset,
    amount: amountToDecimal(amountFromDb(row.amount), decimals),
    status: row.status,
    isOwn: Number(row.user_id) === viewerId,
  };
}
