import type { DepositJson } from '@lattice/contracts';
import { recordsCsv } from '../wallet/csv.js';

const csvColumns = [
  'id',
  'createdAt',
  'ticker',
  'network',
  'amount',
  'status',
  'confirmations',
  'confirmationsRequired',
  'address',
  'memo',
  'txHash',
] as const;

/** Deposits as CSV (`GET /api/v2/deposit_history?format=csv`), one header line. */
export function depositsCsv(records: readonly DepositJson[]): string {
  return recordsCsv(csvColumns, records);
}
