import { z } from 'zod';

/** Transfer codes (vouchers, SPEC.md §7 "Codes"): an amount held until another user redeems it. */

/** Where a code is in its life: held, redeemed by another user, or cancelled by its creator. */
export const voucherStatuses = ['active', 'activated', 'canceled'] as const;
export type VoucherStatus = (typeof voucherStatuses)[number];

/** A code (SPEC.md §3 "Code"); `date` is Unix seconds of its creation. */
export interface VoucherJson {
  date: number;
  code: string;
  ticker: string;
  amount: string;
  status: VoucherStatus;
  /** True when the caller created the code, false when the caller redeemed it. */
  isOwn: boolean;
}

const required = 'Field is required';

/** Codes are 32 upper-case hexadecimal characters. */
export const voucherCodePattern = /^[0-9A-F]{32}$/;

/** `POST /api/v2/profile/code/create`. */
export const voucherCreateBody = z.object({
  ticker: z.string({ error: required }).min(1, required).max(16),
  amount: z.string({ error: required }).min(1, required).max(64),
});
export type VoucherCreateBody = z.infer<typeof voucherCreateBody>;

/** `POST /api/v2/profile/code/apply` and `/code/delete`. */
export const voucherCodeBody = z.object({
  code: z.string({ error: required }).trim().min(1, required).max(64),
});
export type VoucherCodeBody = z.infer<typeof voucherCodeBody>;

/** `GET /api/v2/profile/codes/my[/{ticker}]` and `/codes/history[/{ticker}]`. */
export const voucherListQuery = z.object({
  ticker: z.string().max(16).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type VoucherListQuery = z.infer<typeof voucherListQuery>;
