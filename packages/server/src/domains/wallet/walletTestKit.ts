import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

let credits = 0;

/**
 * Credits `amount` (minor units) of `asset` to a user's main balance through the engine, as a
 * confirmed deposit would; each credit gets its own business id.
 */
export async function creditMain(
  app: FastifyInstance,
  userId: number,
  asset: string,
  amount: bigint,
): Promise<void> {
  await app.engineHost.ensureUser(userId);
  credits += 1;
  const result = await app.engineHost.submit({
    type: 'balance.deposit',
    userId,
    asset,
    amount,
    businessId: `test-credit:${Date.now()}:${credits}`,
  });
  expect(result.ok).toBe(true);
}
