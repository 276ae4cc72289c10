import { z } from 'zod';

const required = 'Field is required';
const account = z.enum(['main', 'trade'], { error: 'Must be main or trade' });

/** `POST /api/v2/profile/transfer`: `amount` stays a string, its decimals are the asset's. */
export const transferBody = z
  .object({
    ticker: z.string({ error: required }).min(1, required),
    amount: z.string({ error: required }).min(1, required),
    from: account,
    to: account,
    client_id: z.string().min(1).max(200).optional(),
  })
  .refine((body) => body.from !== body.to, {
    path: ['to'],
    message: 'From and to must be two different accounts',
  });
export type TransferBody = z.infer<typeof transferBody>;
