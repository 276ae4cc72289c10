import { amountFromDecimal, amountToDecimal } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { createSignedInUser, type TestUser } from '../auth/testClient.js';
import { buildTradingApp } from '../orders/tradingTestKit.js';
import { creditMain } from '../wallet/walletTestKit.js';
import { finishVoucher, insertVoucher } from './vouchers.repo.js';
import { VouchersService } from './vouchers.service.js';

const testDb = useTestDb();
let app: FastifyInstance;
let creator: TestUser;
let redeemer: TestUser;

async function mainOf(user: TestUser, ticker: string): Promise<string> {
  const rows = (await user.client.get('/api/v3/profile/balance')).json() as {
    ticker: string;
    mainBalance: string;
  }[];
  return rows.find((row) => row.ticker === ticker)?.mainBalance ?? 'missing';
}

/** `base` plus `delta`, both ETH decimals, computed exactly. */
function plusEth(base: string, delta: string): string {
  return amountToDecimal(amountFromDecimal(base, 8) + amountFromDecimal(delta, 8), 8);
}

/** `base` minus `delta`, exactly; never negative here. */
function minusEth(base: string, delta: string): string {
  return amountToDecimal(amountFromDecimal(base, 8) - amountFromDecimal(delta, 8), 8);
}

function ethTotal() {
  return app.engineHost.engine.assetTotals().find((asset) => asset.asset === 'ETH');
}

async function createCode(user: TestUser, ticker: string, amount: string): Promise<string> {
  const response = await user.client.post('/api/v2/profile/code/create', { ticker, amount });
  expect(response.statusCode).toBe(201);
  return (response.json() as { code: string }).code;
}

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
  creator = await createSignedInUser(app, { kyc: true });
  redeemer = await createSignedInUser(app);
  await creditMain(app, creator.user.id, 'ETH', 500_000_000n);
});

afterAll(async () => {
  await app.close();
});

describe('creating a code', () => {
  it('holds the amount and lists the code as active', async () => {
    const before = await mainOf(creator, 'ETH');
    const response = await creator.client.post('/api/v2/profile/code/create', {
      ticker: 'ETH',
      amount: '0.25',
    });
    expect(response.statusCode).toBe(201);
    const created = response.json() as { code: string; status: string; amount: string };
    expect(created).toMatchObject({ ticker: 'ETH', amount: '0.25', status: 'active', isOwn: true });
    expect(created.code).toMatch(/^[0-9A-F]{32}$/);
    expect(await mainOf(creator, 'ETH')).toBe(minusEth(before, '0.25'));
    const mine = (await creator.client.get('/api/v2/profile/codes/my/ETH')).json();
    expect(mine.records.map((row: { code: string }) => row.code)).toContain(created.code);
  });

  it('refuses a user without approved KYC and holds nothing', async () => {
    await creditMain(app, redeemer.user.id, 'ETH', 100_000_000n);
    const before = await mainOf(redeemer, 'ETH');
    const response = await redeemer.client.post('/api/v2/profile/code/create', {
      ticker: 'ETH',
      amount: '0.5',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('You must pass personal verification.');
    expect(await mainOf(redeemer, 'ETH')).toBe(before);
  });

  it('lets a user create codes once the dev helper approves their KYC', async () => {
    const user = await createSignedInUser(app);
    await creditMain(app, user.user.id, 'ETH', 100_000_000n);
    const verified = await user.client.post('/api/dev/users/verify', { email: user.email });
    expect(verified.statusCode).toBe(200);
    await createCode(user, 'ETH', '0.1');
    expect(await mainOf(user, 'ETH')).toBe('0.9');
  });

  it('answers 422 for more than the balance, zero or too many decimals', async () => {
    const cases: [string, string][] = [
      ['1000', 'Amount should not be greater than your balance!'],
      ['0', 'Must be greater than zero'],
      ['0.123456789', ''],
    ];
    const before = await mainOf(creator, 'ETH');
    for (const [amount, message] of cases) {
      const response = await creator.client.post('/api/v2/profile/code/create', {
        ticker: 'ETH',
        amount,
      });
      expect(response.statusCode).toBe(422);
      const errors = response.json().errors as Record<string, string[]>;
      expect(errors.amount).toHaveLength(1);
      if (message) expect(errors.amount).toEqual([message]);
    }
    expect(await mainOf(creator, 'ETH')).toBe(before);
  });
});

describe('redeeming and cancelling', () => {
  it('credits the redeemer once and finishes the code for both users', async () => {
    const code = await createCode(creator, 'ETH', '0.3');
    const before = await mainOf(redeemer, 'ETH');
    const applied = await redeemer.client.post('/api/v2/profile/code/apply', { code });
    expect(applied.statusCode).toBe(200);
    expect(applied.json()).toMatchObject({ code, status: 'activated', isOwn: false });
    expect(await mainOf(redeemer, 'ETH')).toBe(plusEth(before, '0.3'));
    const again = await redeemer.client.post('/api/v2/profile/code/apply', { code });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('Code activation error');
    const history = (await redeemer.client.get('/api/v2/profile/codes/history')).json();
    expect(history.records[0]).toMatchObject({ code, status: 'activated', amount: '0.3' });
    const creatorHistory = (await creator.client.get('/api/v2/profile/codes/history/ETH')).json();
    expect(creatorHistory.records.find((row: { code: string }) => row.code === code)).toMatchObject(
      { status: 'activated', isOwn: true },
    );
  });

  it('refuses the creator redeeming their own code and an unknown code', async () => {
    const code = await createCode(creator, 'ETH', '0.01');
    for (const [user, tried] of [
      [creator, code],
      [redeemer, 'F'.repeat(32)],
    ] as const) {
      const response = await user.client.post('/api/v2/profile/code/apply', { code: tried });
      expect(response.statusCode).toBe(422);
    }
  });

  it('gives the amount back on cancel; another user cannot cancel it', async () => {
    const before = await mainOf(creator, 'ETH');
    const code = await createCode(creator, 'ETH', '0.2');
    const foreign = await redeemer.client.post('/api/v2/profile/code/delete', { code });
    expect(foreign.statusCode).toBe(404);
    const cancelled = await creator.client.post('/api/v2/profile/code/delete', { code });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe('canceled');
    expect(await mainOf(creator, 'ETH')).toBe(before);
    const afterCancel = await redeemer.client.post('/api/v2/profile/code/apply', { code });
    expect(afterCancel.statusCode).toBe(422);
    const twice = await creator.client.post('/api/v2/profile/code/delete', { code });
    expect(twice.statusCode).toBe(422);
  });
});

describe('concurrent redemption', () => {
  it('credits exactly one of 50 concurrent activations from two clients', async () => {
    const other = await createSignedInUser(app);
    const code = await createCode(creator, 'ETH', '1');
    const totalBefore = ethTotal();
    const otherBefore = await mainOf(other, 'ETH');
    const redeemerBefore = await mainOf(redeemer, 'ETH');
    const clients = [redeemer.client, other.client];
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        clients[index % 2]!.post('/api/v2/profile/code/apply', { code }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, ...Array.from({ length: 49 }, () => 422)]);
    const settles = await testDb.current.db
      .selectFrom('balance_history')
      .select(['user_id', 'business'])
      .where('business_id', '=', `voucher:${code}`)
      .where('business', '=', 'settle')
      .execute();
    // One settle: the creator's frozen leg and the redeemer's credited leg.
    expect(settles).toHaveLength(2);
    const credited = [
      minusEth(await mainOf(redeemer, 'ETH'), redeemerBefore),
      minusEth(await mainOf(other, 'ETH'), otherBefore),
    ].sort();
    expect(credited).toEqual(['0', '1']);
    // A code moves funds between users: the asset's total over all accounts is unchanged.
    expect(ethTotal()).toEqual(totalBefore);
  });
});

describe('start-up recovery', () => {
  /** A freeze the way `create` places it, with or without the row a stop may have lost. */
  async function frozenCode(code: string, withRow: boolean): Promise<void> {
    const frozen = await app.engineHost.submit({
      type: 'balance.freeze',
      userId: creator.user.id,
      asset: 'ETH',
      account: 'main',
      amount: 10_000_000n,
      businessId: `voucher:${code}`,
      purpose: 'voucher',
    });
    expect(frozen.ok).toBe(true);
    if (!withRow) return;
    const row = { code, userId: creator.user.id, asset: 'ETH', amount: 10_000_000n, now: 1 };
    await insertVoucher(testDb.current.db, row);
  }

  it('releases a freeze without a row, settles an activated code and releases a canceled one', async () => {
    const creatorBefore = await mainOf(creator, 'ETH');
    const redeemerBefore = await mainOf(redeemer, 'ETH');
    const totalBefore = ethTotal();
    const db = testDb.current.db;
    await frozenCode('RECOVERNOROW', false);
    await frozenCode('RECOVERACTIVATED', true);
    await finishVoucher(
      db,
      'RECOVERACTIVATED',
      { status: 'activated', activatedBy: redeemer.user.id },
      2,
    );
    await frozenCode('RECOVERCANCELED', true);
    await finishVoucher(db, 'RECOVERCANCELED', { status: 'canceled', ownerId: creator.user.id }, 2);
    await frozenCode('RECOVERACTIVE', true);
    expect(await mainOf(creator, 'ETH')).toBe(minusEth(creatorBefore, '0.4'));

    const service = new VouchersService(app.engineHost, db);
    expect(await service.recover()).toBe(3);
    // Only the code still active keeps its freeze; a second run finds nothing to do.
    const open = app.engineHost.engine.openFreezes('voucher').map((f) => f.businessId);
    expect(open).toContain('voucher:RECOVERACTIVE');
    expect(open.filter((id) => id.startsWith('voucher:RECOVER'))).toEqual([
      'voucher:RECOVERACTIVE',
    ]);
    expect(await service.recover()).toBe(0);
    expect(await mainOf(creator, 'ETH')).toBe(minusEth(creatorBefore, '0.2'));
    expect(await mainOf(redeemer, 'ETH')).toBe(plusEth(redeemerBefore, '0.1'));
    expect(ethTotal()).toEqual(totalBefore);
  });
});
