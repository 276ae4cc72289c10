import {
  amountToDecimal,
  cancellableWithdrawalStatuses,
  type WithdrawalJson,
} from '@lattice/contracts';
import { amountFromDb } from '../../db/amount.js';
import { recordsCsv } from '../wallet/csv.js';
import type { WithdrawalRow } from './withdrawals.repo.js';

/** A withdrawal as its owner sees it; `explorerLink` is null until a transaction exists. */
export function presentWithdrawal(
  row: WithdrawalRow,
  decimals: number,
  explorerLink: (network: string, txHash: string) => string | null,
): WithdrawalJson {
  return {
    id: Number(row.id),
    ticker: row.asset,
    currency: row.asset,
    network: row.network,
    createdAt: Number(row.created_at) / 1000,
    amount: amountToDecimal(amountFromDb(row.amount), decimals),
    fee: amountToDecimal(amountFromDb(row.fee), decimals),
    status: Number(row.status),
    address: row.address,
    memo: row.memo === '' ? null : row.memo,
    reason: row.reason,
    txHash: row.tx_hash,
    explorerLink: row.tx_hash === null ? null : explorerLink(row.network, row.tx_hash),
    cancellable: cancellableWithdrawalStatuses.includes(Number(row.status)),
  };
}

const csvColumns = [
  'id',
  'createdAt',
  'ticker',
  'network',
  'amount',
  'fee',
  'status',
  'reason',
  'address',
  'memo',
  'txHash',
] as const;

/** The same rows as CSV, one header line. */
export function withdrawalsCsv(records: readonly WithdrawalJson[]): string {
  return recordsCsv(csvColumns, records);
}
