import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { testClock } from '../auth/authTestApp.js';
import { createSignedInUser, type TestUser } from '../auth/testClient.js';
import { buildWithdrawalApp, fundMain, nextCode } from '../withdrawals/withdrawalTestKit.js';

const testDb = useTestDb();
const clock = testClock(Date.now());
const saved = `0x${'12'.repeat(20)}`;
const other = `0x${'34'.repeat(20)}`;
let app: FastifyInstance;
let user: TestUser;

function withdrawTo(address: string) {
  return user.client.post('/api/v3/balance/withdrawal-ETH/CRYPTOMEMO', {
    amount: '0.1',
    address,
    code: nextCode(clock, user.totpSecret),
  });
}

beforeAll(async () => {
  app = await buildWithdrawalApp(testDb.current, clock);
  user = await createSignedInUser(app, { twoFactor: true });
  await fundMain(app, user.user.id, 'ETH', '1', 8);
});

afterAll(async () => {
  await app.close();
});

describe('the withdrawal whitelist', () => {
  it('adds with 2FA, lists, and in whitelist mode withdraws only to saved addresses', async () => {
    const noCode = await user.client.post('/api/v2/whitelist-address', {
      name: 'Cold',
      coin: 'ETH',
      address: saved,
      code: '000000',
    });
    expect(noCode.statusCode).toBe(422);
    const added = await user.client.post('/api/v2/whitelist-address', {
      name: 'Cold',
      coin: 'ETH',
      address: saved,
      code: nextCode(clock, user.totpSecret),
    });
    expect(added.statusCode).toBe(201);
    const listed = (await user.client.get('/api/v2/whitelisted-addresses')).json();
    expect(listed).toMatchObject({ enabled: false, records: [{ name: 'Cold', coin: 'ETH' }] });
    const mode = await user.client.post('/api/v2/2fa-confirm-whitelist', {
      enabled: true,
      code: nextCode(clock, user.totpSecret),
    });
    expect(mode.statusCode).toBe(200);
    const refused = await withdrawTo(other);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.address).toEqual(['This address is not in your whitelist']);
    expect((await withdrawTo(saved)).statusCode).toBe(200);
  });

  it("deletes an own address; another user's id is a 404", async () => {
    const stranger = await createSignedInUser(app);
    const { records } = (await user.client.get('/api/v2/whitelisted-addresses')).json();
    const id = records[0].id;
    const foreign = await stranger.client.post('/api/v2/delete-whitelisted-address', { id });
    expect(foreign.statusCode).toBe(404);
    const deleted = await user.client.post('/api/v2/delete-whitelisted-address', { id });
    expect(deleted.statusCode).toBe(200);
    expect((await user.client.get('/api/v2/whitelisted-addresses')).json().records).toEqual([]);
    expect((await withdrawTo(saved)).statusCode).toBe(422);
  });
});
