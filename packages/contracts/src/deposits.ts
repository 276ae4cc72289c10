import { z } from 'zod';
import { transactionHistoryQuery } from './withdrawals.js';

/**
 * Deposits over simulated or real chains: deposit addresses, deposit history and the
 * development helpers of API.md that drive the simulated chains.
 */

/** `GET /api/v2/profile/address/{ticker}?network=`. */
export interface DepositAddressJson {
  address: string;
  /** The memo to send with the deposit on networks that share one address; null elsewhere. */
  memo: string | null;
  network: string;
}

/** Transaction status codes of SPEC.md §4 that deposits use. */
export const depositStatus = { pending: 2, successful: 3 } as const;

/** A deposit record (SPEC.md §3 "Deposit or withdrawal record"). */
export interface DepositJson {
  id: number;
  ticker: string;
  currency: string;
  network: string;
  createdAt: number;
  amount: string;
  status: number;
  address: string;
  memo: string | null;
  reason: string | null;
  txHash: string;
  fee: string;
  confirmations: number;
  confirmationsRequired: number;
  explorerLink: string;
}

const required = 'Field is required';

export const addressQuery = z.object({ network: z.string().max(32).optional() });

/** `POST /api/dev/chain/deposit`: the simulated chain sends `amount` to `address`. */
export const devChainDepositBody = z.object({
  ticker: z.string({ error: required }).min(1, required).max(16),
  network: z.string().max(32).optional(),
  address: z.string({ error: required }).min(1, required).max(128),
  amount: z.string({ error: required }).min(1, required),
  memo: z.string().max(64).optional(),
});
export type DevChainDepositBody = z.infer<typeof devChainDepositBody>;

/** Blocks one `POST /api/dev/chain/mine` may add at most. */
export const devChainMineMax = 1000;

/** `POST /api/dev/chain/mine`: every network, or one, advances `blocks` at once. */
export const devChainMineBody = z.object({
  network: z.string().max(32).optional(),
  blocks: z.coerce.number().int().min(1).max(devChainMineMax).default(1),
});

/** `GET /api/v2/deposit_history`: filters, paging, and `format=csv` for the same rows as CSV. */
export const depositHistoryQuery = transactionHistoryQuery;
export type DepositHistoryQuery = z.infer<typeof depositHistoryQuery>;

/** `POST /api/v2/profile/address`: a further address once the current one received a deposit. */
export const newAddressBody = z.object({
  ticker: z.string({ error: required }).min(1, required).max(16),
  network: z.string().max(32).optional(),
});
