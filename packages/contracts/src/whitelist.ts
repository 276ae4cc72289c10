import { z } from 'zod';

/** The withdrawal address whitelist (SPEC.md §3 "Saved address", §7 "Whitelist"). */

/** A saved address; `date` is Unix seconds. */
export interface WhitelistAddressJson {
  id: number;
  name: string;
  address: string;
  coin: string;
  memo: string | null;
  date: number;
}

const required = 'Field is required';
const twoFactorCode = z.string({ error: required }).regex(/^\d{6}$/, 'Length should be 6');

/** `POST /api/v2/whitelist-address`: saving an address needs a 2FA code. */
export const whitelistAddBody = z.object({
  name: z.string({ error: required }).trim().min(1, required).max(64),
  coin: z.string({ error: required }).min(1, required).max(16),
  address: z.string({ error: required }).trim().min(1, required).max(128),
  memo: z.string().trim().max(64).optional(),
  code: twoFactorCode,
});
export type WhitelistAddBody = z.infer<typeof whitelistAddBody>;

/** `POST /api/v2/2fa-confirm-whitelist`: turns whitelist mode on or off. */
export const whitelistModeBody = z.object({ enabled: z.boolean(), code: twoFactorCode });

/** `POST /api/v2/delete-whitelisted-address`. */
export const whitelistDeleteBody = z.object({ id: z.coerce.number().int().positive() });
