import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { testClock } from '../auth/authTestApp.js';
import { createSignedInUser, type TestUser } from '../auth/testClient.js';
import { buildWithdrawalApp, fundMain, nextCode } from '../withdrawals/withdrawalTestKit.js';

const testDb = useTestDb();
const clock = testClock(Date.now());
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildWithdrawalApp(testDb.current, clock);
});

afterAll(async () => {
  await app.close();
});

async function mine(user: TestUser, network: string, blocks: number) {
  const response = await user.client.post('/api/dev/chain/mine', { network, blocks });
  expect(response.statusCode).toBe(200);
}

async function sendTo(user: TestUser, ticker: string, amount: string) {
  const { address } = (await user.client.get(`/api/v2/profile/address/${ticker}`)).json();
  const response = await user.client.post('/api/dev/chain/deposit', { ticker, address, amount });
  expect(response.statusCode).toBe(200);
  return response.json().txHash as string;
}

describe('deposit history', () => {
  it('filters by currency, status and date, pages, and exports CSV', async () => {
    const user = await createSignedInUser(app);
    const first = await sendTo(user, 'ETH', '0.1');
    await sendTo(user, 'ETH', '0.2');
    await sendTo(user, 'BTC', '0.01');
    // ETH needs 12 confirmations: after 13 blocks both ETH deposits are credited; BTC waits.
    await mine(user, 'ethereum', 13);
    await mine(user, 'bitcoin', 1);
    const list = async (query: string) => {
      const response = await user.client.get(`/api/v2/deposit_history?${query}`);
      expect(response.statusCode, query).toBe(200);
      return response.json() as { records: { ticker: string; status: number }[]; total: number };
    };
    expect((await list('')).total).toBe(3);
    expect((await list('ticker=ETH')).records.map((r) => r.ticker)).toEqual(['ETH', 'ETH']);
    expect((await list('status=2')).records).toEqual([
      expect.objectContaining({ ticker: 'BTC', status: 2 }),
    ]);
    expect((await list('status=3')).total).toBe(2);
    const nowSeconds = Math.floor(Date.now() / 1000);
    expect((await list(`from=${nowSeconds - 3600}`)).total).toBe(3);
    expect((await list(`from=${nowSeconds + 3600}`)).total).toBe(0);
    expect((await list(`to=${nowSeconds - 3600}`)).total).toBe(0);
    const page = await list('ticker=ETH&limit=1&offset=1');
    expect(page).toMatchObject({ total: 2, offset: 1, limit: 1 });
    expect(page.records).toHaveLength(1);
    expect(page.records[0]).toMatchObject({ amount: '0.1', txHash: first });
    const csv = await user.client.get('/api/v2/deposit_history?ticker=ETH&format=csv');
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe(
      'id,createdAt,ticker,network,amount,status,confirmations,confirmationsRequired,address,memo,txHash',
    );
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain(first);
    const bad = await user.client.get('/api/v2/deposit_history?status=99');
    expect(bad.statusCode).toBe(422);
  });
});

describe('a withdrawal to an address of this exchange', () => {
  it("arrives as the other user's deposit on a memo network, by the memo", async () => {
    const sender = await createSignedInUser(app, { twoFactor: true });
    await fundMain(app, sender.user.id, 'CNB', '100', 8);
    const receiver = await createSignedInUser(app);
    const target = (await receiver.client.get('/api/v2/profile/address/CNB')).json();
    expect(target.memo).not.toBeNull();
    const sent = await sender.client.post('/api/v3/balance/withdrawal-CNB/CRYPTOMEMO', {
      amount: '40',
      address: target.address,
      memo: target.memo,
      code: nextCode(clock, sender.totpSecret),
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().status).toBe(11);
    await mine(receiver, 'cryptounit', 6);
    const history = (await receiver.client.get('/api/v2/deposit_history?ticker=CNB')).json();
    expect(history.records).toEqual([
      expect.objectContaining({
        amount: '40',
        status: 3,
        txHash: sent.json().txHash,
        memo: target.memo,
      }),
    ]);
    const sentRecords = (await sender.client.get('/api/v2/withdraw_history')).json().records;
    expect(sentRecords[0]).toMatchObject({ status: 3, txHash: sent.json().txHash });
    const balances = (await receiver.client.get('/api/v3/profile/balance/CNB')).json();
    expect(balances.mainBalance).toBe('40');
    // The sender paid the amount and the 1 CNB fee.
    expect((await sender.client.get('/api/v3/profile/balance/CNB')).json().mainBalance).toBe('59');
  });
});
