import { selfTradePrevention } from '@lattice/contracts';
import { z } from 'zod';

const required = 'Field is required';
const text = z.string({ error: required }).min(1, required);

/** `buy` or `sell`, as the API spells the order side. */
export const direction = z.enum(['buy', 'sell'], { error: 'Must be buy or sell' });

/** An optional client key in the body, the same as the `Idempotency-Key` header. */
const clientId = z.string().min(1).max(200).optional();

/** `POST /api/v2/order`. Amounts stay strings here: their decimals depend on the market. */
export const limitOrderBody = z.object({
  pair: text,
  direction,
  price: text,
  amount: text,
  client_id: clientId,
  self_trade_prevention: selfTradePrevention,
});
export type LimitOrderBody = z.infer<typeof limitOrderBody>;

/** `POST /api/v2/order/put_market`: `amount` in the stock asset, or for a buy `total` in money. */
export const marketOrderBody = z
  .object({
    pair: text,
    direction,
    amount: text.optional(),
    total: text.optional(),
    client_id: clientId,
    self_trade_prevention: selfTradePrevention,
  })
  .superRefine((body, ctx) => {
    if ((body.amount === undefined) === (body.total === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Give either amount or total' });
    }
    if (body.total !== undefined && body.direction === 'sell') {
      ctx.addIssue({
        code: 'custom',
        path: ['total'],
        message: 'Only a buy can be placed by total',
      });
    }
  });
export type MarketOrderBody = z.infer<typeof marketOrderBody>;

/** `GET /api/v2/order`. */
export const openOrdersQuery = z.object({
  pairName: z.string().default('all'),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type OpenOrdersQuery = z.infer<typeof openOrdersQuery>;

/** `DELETE /api/v2/order/{id}`. */
export const orderIdParams = z.object({
  id: z.coerce.number({ error: 'Must be an order id' }).int().positive(),
});
