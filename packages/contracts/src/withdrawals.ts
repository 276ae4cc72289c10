import { z } from 'zod';

/** Crypto withdrawals: fee quotes, requests and their history (SPEC.md §7 "Fees and payments"). */

/**
 * Transaction status codes of SPEC.md §4 that withdrawals use. The life cycle:
 * 1 (recorded, funds being held) → 5 (waiting for the e-mail link, API-key requests) and/or
 * 6 (above the operator threshold, waiting for approval) → 10 (confirmed) → 11 (sending) →
 * 3 (sent) or 4 (the send failed, funds released). 12: canceled by the user or rejected by the
 * operator, funds released; 13: stopped by the exchange (confirmation link expired, or a
 * restart found it before its funds were held), funds released.
 */
export const withdrawalStatus = {
  freezed: 1,
  successful: 3,
  failed: 4,
  unconfirmedByUser: 5,
  unconfirmedByAdmin: 6,
  confirmedByUser: 10,
  inProcess: 11,
  unsuccessful: 12,
  canceledByValidation: 13,
} as const;

/** Statuses a user may cancel a withdrawal in: held, not yet being sent. */
export const cancellableWithdrawalStatuses: readonly number[] = [
  withdrawalStatus.unconfirmedByUser,
  withdrawalStatus.unconfirmedByAdmin,
  withdrawalStatus.confirmedByUser,
];

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
  /** Whether `POST /api/v2/withdrawals/{id}/cancel` may still cancel it (status 5, 6 or 10). */
  cancellable: boolean;
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
  /** The parts of `fee` (SPEC.md §3 "Currency fee"): the network's fixed fee ... */
  fixedFee: string;
  /** ... plus `flexPercent` % of the amount, kept between `flexMin` and `flexMax`. */
  flexFee: string;
  flexPercent: string;
  flexMin: string;
  /** "0": no maximum. */
  flexMax: string;
}

/** `GET /api/v3/profile/withdraw_kyc_limit`: the user's withdrawal level and what is left. */
export interface WithdrawLimitJson {
  /** `none` without 2FA (nothing can be withdrawn), `basic` with 2FA, `verified` with KYC too. */
  level: 'none' | 'basic' | 'verified';
  twoFactorEnabled: boolean;
  kycVerified: boolean;
  /** Whole USD per 24 h. */
  usdPerDay: string;
  /** What the last 24 h leave, in USD valued at the last prices. */
  usdLeftToday: string;
  /** Value in BTC per 7 days; null when the level has no weekly limit. */
  btcPerWeek: string | null;
  btcLeftThisWeek: string | null;
  /** Withdrawals above this USD value wait for an operator (status 6). */
  reviewAboveUsd: string;
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

/** Date filters of the histories: Unix seconds, `from` inclusive, `to` exclusive. */
export const historyDateRange = {
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
};

/**
 * The query of a deposit or withdrawal history: filters, paging, and `format=csv` for the same
 * rows as CSV. Both histories take the same one, so a change to it reaches both.
 */
export const transactionHistoryQuery = z.object({
  ticker: z.string().max(16).optional(),
  status: z.coerce.number().int().min(1).max(13).optional(),
  ...historyDateRange,
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  format: z.enum(['json', 'csv']).default('json'),
});

/** `GET /api/v2/withdraw_history`. */
export const withdrawalHistoryQuery = transactionHistoryQuery;
export type WithdrawalHistoryQuery = z.infer<typeof withdrawalHistoryQuery>;

/** `POST /api/v2/withdrawals/confirm`: the token of the e-mail link (status 5 → 10 or 6). */
export const withdrawalConfirmBody = z.object({
  token: z.string({ error: required }).min(16, required).max(128),
});

/** `POST /api/dev/currencies/switch`: turns deposits or withdrawals of a currency on or off. */
export const currencySwitchBody = z.object({
  ticker: z.string({ error: required }).min(1, required).max(16),
  deposit: z.boolean().optional(),
  withdraw: z.boolean().optional(),
});

/** `POST /api/dev/currencies/fee`: the flex part of a currency fee on one network. */
export const currencyFeeRuleBody = z.object({
  ticker: z.string({ error: required }).min(1, required).max(16),
  network: z.string({ error: required }).min(1, required).max(32),
  /** Percent of the amount, at most 4 decimals ("0.1" is 0.1 %). */
  flexPercent: z.string().regex(/^\d{1,2}(\.\d{1,4})?$/, 'Only digits'),
  flexMin: z.string().max(64).default('0'),
  flexMax: z.string().max(64).default('0'),
});
