import { z } from 'zod';

/** Crypto withdrawals: fee quotes, requests and their history (SPEC.md §7 "Fees and payments"). */

/** Transaction status codes of SPEC.md §4 that withdrawals use. */
export const withdrawalStatus = {
  successful: 3,
  failed: 4,
  confirmedByUser: 10,
  inProcess: 11,
} as const;

/** A withdrawal record (SPEC.md §3 "Deposit or withdrawal record"). */
export interface WithdrawalJson {
  id: number;
  ticker: string;
  currency: string;
  network: string;
  createdAt: number;
  /** What leaves to the address; the fee is taken on top of it. */
  amount: string;
  fee: string;
  status: number;
  address: string;
  memo: string | null;
  reason: string | null;
  txHash: string | null;
  explorerLink: string | null;
}

/** `POST /api/v3/balance/calcfee-{ticker}/{paymentKey}`. */
export interface WithdrawalFeeJson {
  ticker: string;
  network: string;
  amount: string;
  fee: string;
  /** Amount plus fee: what the balance must cover. */
  total: string;
  minAmount: string;
}

const required = 'Field is required';

/** `POST /api/v3/balance/calcfee-{ticker}/{paymentKey}`. */
export const withdrawalFeeBody = z.object({
  amount: z.string({ error: required }).min(1, required).max(64),
  network: z.string().max(32).optional(),
  action: z.union([z.literal(2), z.literal('2'), z.literal('WITHDRAWAL')]).optional(),
});
export type WithdrawalFeeBody = z.infer<typeof withdrawalFeeBody>;

/** `POST /api/v3/balance/withdrawal-{ticker}/{paymentKey}`. */
export const withdrawalBody = z.object({
  amount: z.string({ error: required }).min(1, required).max(64),
  address: z.string({ error: required }).trim().min(1, required).max(128),
  memo: z.string().trim().max(64).optional(),
  network: z.string().max(32).optional(),
  /** The 6-digit 2FA code: the user's confirmation. */
  code: z.string({ error: required }).regex(/^\d{6}$/, 'Length should be 6'),
});
export type WithdrawalBody = z.infer<typeof withdrawalBody>;

/** `GET /api/v2/withdraw_history`. */
export const withdrawalHistoryQuery = z.object({
  ticker: z.string().max(16).optional(),
  status: z.coerce.number().int().min(1).max(13).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  format: z.enum(['json', 'csv']).default('json'),
});
export type WithdrawalHistoryQuery = z.infer<typeof withdrawalHistoryQuery>;
