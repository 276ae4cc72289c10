import { amountFromDecimal, amountToDecimal } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { testClock } from '../auth/authTestApp.js';
import { createSignedInUser, type TestUser } from '../auth/testClient.js';
import { updateUser } from '../auth/users.repo.js';
import { buildWithdrawalApp, fundMain, mineBlocks, nextCode } from './withdrawalTestKit.js';

const testDb = useTestDb();
const clock = testClock(Date.now());
const outside = `0x${'ab'.repeat(20)}`;
let app: FastifyInstance;

async function mainOf(user: TestUser, ticker: string): Promise<string> {
  const rows = (await user.client.get('/api/v3/profile/balance')).json() as {
    ticker: string;
    mainBalance: string;
  }[];
  return rows.find((row) => row.ticker === ticker)?.mainBalance ?? 'missing';
}

function minusEth(base: string, delta: string): string {
  return amountToDecimal(amountFromDecimal(base, 8) - amountFromDecimal(delta, 8), 8);
}

async function fundedUser(amount: string, options: { twoFactor?: boolean } = {}) {
  const user = await createSignedInUser(app, { twoFactor: options.twoFactor ?? true });
  if (amount !== '0') await fundMain(app, user.user.id, 'ETH', amount, 8);
  return user;
}

function withdraw(user: TestUser, body: Record<string, unknown>) {
  return user.client.post('/api/v3/balance/withdrawal-ETH/CRYPTOMEMO', body);
}

beforeAll(async () => {
  app = await buildWithdrawalApp(testDb.current, clock);
});

afterAll(async () => {
  await app.close();
});

describe('fee quote', () => {
  it('answers the network fee, the total and the minimum', async () => {
    const user = await fundedUser('0');
    const response = await user.client.post('/api/v3/balance/calcfee-ETH/CRYPTOMEMO', {
      amount: '0.5',
      action: 2,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ticker: 'ETH',
      network: 'ethereum',
      amount: '0.5',
      fee: '0.002',
      total: '0.502',
      minAmount: '0.01',
      fixedFee: '0.002',
      flexFee: '0',
      flexPercent: '0',
      flexMin: '0',
      flexMax: '0',
    });
  });
});

describe('a withdrawal with 2FA', () => {
  it('takes amount and fee, sends the amount, and is successful at the confirmations', async () => {
    const user = await fundedUser('1');
    const before = app.engineHost.engine.assetTotals().find((row) => row.asset === 'ETH');
    const response = await withdraw(user, {
      amount: '0.5',
      address: outside,
      code: nextCode(clock, user.totpSecret),
    });
    expect(response.statusCode).toBe(200);
    const record = response.json();
    // Sent and in process (11) until the transaction has the network's 12 confirmations.
    expect(record).toMatchObject({ ticker: 'ETH', amount: '0.5', fee: '0.002', status: 11 });
    expect(record.txHash).toMatch(/^0x[0-9a-f]+$/);
    expect(await mainOf(user, 'ETH')).toBe('0.498');
    const after = app.engineHost.engine.assetTotals().find((row) => row.asset === 'ETH');
    // Only the sent amount left; the fee stays inside, on the fee account.
    expect(after?.withdrawn).toBe((before?.withdrawn ?? 0n) + 50_000_000n);
    expect(after?.total).toBe((before?.total ?? 0n) - 50_000_000n);
    await mineBlocks(app, 'ethereum', 11);
    const statusNow = async () =>
      (await user.client.get('/api/v2/withdraw_history')).json().records[0].status;
    expect(await statusNow()).toBe(11);
    await mineBlocks(app, 'ethereum', 1);
    expect(await statusNow()).toBe(3);
    const history = (await user.client.get('/api/v2/withdraw_history?ticker=ETH')).json();
    expect(history).toMatchObject({ total: 1, offset: 0, limit: 50 });
    expect(history.records[0]).toMatchObject({ id: record.id, status: 3, address: outside });
    const csv = await user.client.get('/api/v2/withdraw_history?format=csv');
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\n')[1]).toContain(record.txHash);
  });

  it('arrives as a deposit when sent to an address of another user of the exchange', async () => {
    const sender = await fundedUser('1');
    const receiver = await createSignedInUser(app);
    const { address } = (await receiver.client.get('/api/v2/profile/address/ETH')).json();
    const response = await withdraw(sender, {
      amount: '0.25',
      address,
      code: nextCode(clock, sender.totpSecret),
    });
    expect(response.statusCode).toBe(200);
    expect(await mainOf(receiver, 'ETH')).toBe('0');
    const mined = await receiver.client.post('/api/dev/chain/mine', {
      network: 'ethereum',
      blocks: 12,
    });
    expect(mined.statusCode).toBe(200);
    expect(await mainOf(receiver, 'ETH')).toBe('0.25');
  });
});

describe('bad input holds and moves nothing', () => {
  it('answers each refusal with its message and leaves the balance and history alone', async () => {
    const user = await fundedUser('1');
    const noTwoFactor = await fundedUser('1', { twoFactor: false });
    const cases: [TestUser, Record<string, unknown>, number, string, string][] = [
      [user, { amount: '5' }, 422, 'amount', 'Amount should not be greater than your balance!'],
      [user, { amount: '0.001' }, 422, 'amount', 'Min value 0.01'],
      [
        user,
        { address: 'bc1qnotanethaddress' },
        422,
        'address',
        'Address is not valid for this network',
      ],
      [user, { code: '000000' }, 422, 'code', 'Wrong 2FA code'],
      [user, { amount: '0.123456789' }, 422, 'amount', ''],
      [noTwoFactor, {}, 403, '', 'Turn on two-factor authentication first'],
    ];
    for (const [who, change, status, field, message] of cases) {
      const body = { amount: '0.5', address: outside, code: '', ...change };
      if (body.code === '') body.code = nextCode(clock, who.totpSecret ?? 'AAAAAAAAAAAAAAAA');
      const response = await withdraw(who, body);
      expect(response.statusCode, JSON.stringify(change)).toBe(status);
      if (field && message) expect(response.json().errors[field]).toEqual([message]);
      if (!field) expect(response.json().message).toBe(message);
    }
    expect(await mainOf(user, 'ETH')).toBe('1');
    expect(await mainOf(noTwoFactor, 'ETH')).toBe('1');
    expect((await user.client.get('/api/v2/withdraw_history')).json().total).toBe(0);
  });

  it('refuses a missing memo on a memo network', async () => {
    const user = await fundedUser('0');
    await fundMain(app, user.user.id, 'CNB', '100', 8);
    const response = await user.client.post('/api/v3/balance/withdrawal-CNB/CRYPTOMEMO', {
      amount: '10',
      address: 'cryabcdef0123456789abcdef01234567',
      code: nextCode(clock, user.totpSecret),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.memo).toEqual(['Field is required']);
  });

  it('pauses withdrawals until the block a password change set has passed', async () => {
    const user = await fundedUser('1');
    // The password service sets the block 3 days ahead; a minute keeps the session alive here.
    const until = clock.now() + 60_000;
    await updateUser(
      app.accounts.db,
      user.user.id,
      { withdrawals_blocked_until: until },
      clock.now(),
    );
    const body = () => ({
      amount: '0.5',
      address: outside,
      code: nextCode(clock, user.totpSecret),
    });
    const blocked = await withdraw(user, body());
    expect(blocked.statusCode).toBe(403);
    expect(await mainOf(user, 'ETH')).toBe('1');
    clock.advance(60_000);
    expect((await withdraw(user, body())).statusCode).toBe(200);
    expect(await mainOf(user, 'ETH')).toBe(minusEth('1', '0.502'));
  });
});
