import { amountFromDecimal, withdrawalStatus } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { testClock } from '../auth/authTestApp.js';
import { createSignedInUser, type TestUser } from '../auth/testClient.js';
import {
  buildWithdrawalApp,
  fundMain,
  mainOf,
  mineBlocks,
  nextCode,
  statusOf,
} from './withdrawalTestKit.js';

const testDb = useTestDb();
const clock = testClock(Date.now());
const tronOutside = `T${'a'.repeat(33)}`;
const ethOutside = `0x${'ef'.repeat(20)}`;
const usdt = (text: string) => amountFromDecimal(text, 6);
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildWithdrawalApp(testDb.current, clock);
});

afterAll(async () => {
  await app.close();
});

async function usdtUser(amount: string, options: { kyc?: boolean } = {}): Promise<TestUser> {
  const user = await createSignedInUser(app, { twoFactor: true, kyc: options.kyc ?? true });
  if (amount !== '0') await fundMain(app, user.user.id, 'USDT', amount, 6);
  return user;
}

function withdrawUsdt(user: TestUser, amount: string) {
  return user.client.post('/api/v3/balance/withdrawal-USDT/CRYPTOMEMO', {
    amount,
    address: tronOutside,
    network: 'tron',
    code: nextCode(clock, user.totpSecret),
  });
}

describe('above the operator threshold (status 6)', () => {
  it('holds the funds until an operator approves; then it is sent (10 → 11 → 3)', async () => {
    const user = await usdtUser('20000');
    const response = await withdrawUsdt(user, '10001');
    expect(response.statusCode).toBe(200);
    const record = response.json();
    expect(record).toMatchObject({ status: withdrawalStatus.unconfirmedByAdmin, txHash: null });
    expect(record.cancellable).toBe(true);
    // 10,001 plus the 1 USDT tron fee is held, nothing sent.
    expect(mainOf(app, user.user.id, 'USDT')).toEqual({
      available: usdt('9999') - usdt('1'),
      frozen: usdt('10002'),
    });
    const approved = await user.client.post(`/api/dev/withdrawals/${record.id}/approve`, {});
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: withdrawalStatus.inProcess });
    expect(approved.json().txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(approved.json().cancellable).toBe(false);
    // Tron asks for 20 confirmations.
    await mineBlocks(app, 'tron', 19);
    expect(await statusOf(app, record.id)).toBe(withdrawalStatus.inProcess);
    await mineBlocks(app, 'tron', 1);
    expect(await statusOf(app, record.id)).toBe(withdrawalStatus.successful);
    expect(mainOf(app, user.user.id, 'USDT')).toEqual({ available: usdt('9998'), frozen: 0n });
    // Approving twice does nothing more.
    const again = await user.client.post(`/api/dev/withdrawals/${record.id}/approve`, {});
    expect(again.statusCode).toBe(422);
    expect(mainOf(app, user.user.id, 'USDT').available).toBe(usdt('9998'));
  });

  it('releases the funds when the operator rejects it (12)', async () => {
    const user = await usdtUser('20000');
    const record = (await withdrawUsdt(user, '15000')).json();
    expect(record.status).toBe(withdrawalStatus.unconfirmedByAdmin);
    const rejected = await user.client.post(`/api/dev/withdrawals/${record.id}/reject`, {});
    expect(rejected.json()).toMatchObject({
      status: withdrawalStatus.unsuccessful,
      reason: 'Rejected by the operator',
      cancellable: false,
    });
    expect(mainOf(app, user.user.id, 'USDT')).toEqual({ available: usdt('20000'), frozen: 0n });
  });

  it('stays at 10 → 11 → 3 below the threshold', async () => {
    const user = await usdtUser('500');
    const record = (await withdrawUsdt(user, '100')).json();
    expect(record.status).toBe(withdrawalStatus.inProcess);
    await mineBlocks(app, 'tron', 20);
    expect(await statusOf(app, record.id)).toBe(withdrawalStatus.successful);
    expect(mainOf(app, user.user.id, 'USDT').available).toBe(usdt('399'));
  });
});

describe('cancel by the user', () => {
  it('releases a held withdrawal through the engine; a second cancel is refused', async () => {
    const user = await usdtUser('20000');
    const record = (await withdrawUsdt(user, '12000')).json();
    const cancel = await user.client.post(`/api/v2/withdrawals/${record.id}/cancel`, {});
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toMatchObject({
      status: withdrawalStatus.unsuccessful,
      reason: 'Canceled by user',
    });
    expect(mainOf(app, user.user.id, 'USDT')).toEqual({ available: usdt('20000'), frozen: 0n });
    const twice = await user.client.post(`/api/v2/withdrawals/${record.id}/cancel`, {});
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors.id).toEqual(['This withdrawal can no longer be canceled']);
    // A canceled withdrawal gave its funds back: it no longer counts against the limit.
    const limit = (await user.client.get('/api/v3/profile/withdraw_kyc_limit')).json();
    expect(limit.usdLeftToday).toBe('100000');
    expect(mainOf(app, user.user.id, 'USDT').available).toBe(usdt('20000'));
  });

  it("refuses another user's withdrawal (404) and one already sent (422)", async () => {
    const owner = await usdtUser('20000');
    const other = await usdtUser('0');
    const held = (await withdrawUsdt(owner, '12000')).json();
    const sent = (await withdrawUsdt(owner, '50')).json();
    expect(sent.status).toBe(withdrawalStatus.inProcess);
    const foreign = await other.client.post(`/api/v2/withdrawals/${held.id}/cancel`, {});
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'withdrawal_not_found' });
    expect(await statusOf(app, held.id)).toBe(withdrawalStatus.unconfirmedByAdmin);
    const late = await owner.client.post(`/api/v2/withdrawals/${sent.id}/cancel`, {});
    expect(late.statusCode).toBe(422);
    expect(await statusOf(app, sent.id)).toBe(withdrawalStatus.inProcess);
    expect(mainOf(app, owner.user.id, 'USDT').frozen).toBe(usdt('12001'));
  });
});

describe('flex fees (percent with min / max per currency and network)', () => {
  it('quotes and charges the fixed fee plus the percent, kept under the maximum', async () => {
    const user = await usdtUser('200000');
    const quote = (amount: string) =>
      user.client.post('/api/v3/balance/calcfee-USDT/CRYPTOMEMO', { amount, network: 'ethereum' });
    // The ethereum rule: 5 fixed + 0.1 %, at most 20 more.
    expect((await quote('1000')).json()).toMatchObject({
      fee: '6',
      total: '1006',
      fixedFee: '5',
      flexFee: '1',
      flexPercent: '0.1',
      flexMax: '20',
    });
    expect((await quote('50000')).json()).toMatchObject({ fee: '25', flexFee: '20' });
    // Rounded up in the exchange's favour: 0.1 % of 20.000001 is 0.0200000001.
    expect((await quote('20.000001')).json().flexFee).toBe('0.020001');
    const sent = await user.client.post('/api/v3/balance/withdrawal-USDT/CRYPTOMEMO', {
      amount: '1000',
      address: ethOutside,
      network: 'ethereum',
      code: nextCode(clock, user.totpSecret),
    });
    expect(sent.json()).toMatchObject({ status: withdrawalStatus.inProcess, fee: '6' });
    expect(mainOf(app, user.user.id, 'USDT').available).toBe(usdt('198994'));
  });

  it('follows a rule an operator sets, with a minimum', async () => {
    const user = await usdtUser('100');
    const set = await user.client.post('/api/dev/currencies/fee', {
      ticker: 'USDT',
      network: 'bsc',
      flexPercent: '1',
      flexMin: '2',
      flexMax: '0',
    });
    expect(set.statusCode).toBe(200);
    const quote = (amount: string) =>
      user.client.post('/api/v3/balance/calcfee-USDT/CRYPTOMEMO', { amount, network: 'bsc' });
    // 0.5 fixed + 1 % kept at least 2.
    expect((await quote('10')).json()).toMatchObject({ fee: '2.5', flexFee: '2' });
    expect((await quote('1000')).json()).toMatchObject({ fee: '10.5', flexFee: '10' });
    const bad = await user.client.post('/api/dev/currencies/fee', {
      ticker: 'USDT',
      network: 'bsc',
      flexPercent: '1',
      flexMin: '5',
      flexMax: '1',
    });
    expect(bad.statusCode).toBe(422);
    const data = (await user.client.get('/api/v3/profile/withdrawaldata/USDT')).json();
    const bsc = data.paymentList.find((method: { key: string }) => method.key === 'bsc');
    expect(bsc.fee).toEqual({ fixed: '0.5', flexMin: '2', flexMax: '0', flexPercent: '1' });
  });
});

describe('per-currency switches', () => {
  it("answers 'Deposit/Withdrawal for {value} is disabled' and moves nothing", async () => {
    const user = await createSignedInUser(app, { twoFactor: true });
    await fundMain(app, user.user.id, 'LTT', '1000', 8);
    const off = await user.client.post('/api/dev/currencies/switch', {
      ticker: 'LTT',
      deposit: false,
      withdraw: false,
    });
    expect(off.json()).toEqual({ ticker: 'LTT', isDepositOn: false, isWithdrawOn: false });
    const message = 'Deposit/Withdrawal for LTT is disabled';
    const fee = await user.client.post('/api/v3/balance/calcfee-LTT/CRYPTOMEMO', { amount: '60' });
    expect(fee.statusCode).toBe(422);
    expect(fee.json().message).toBe(message);
    const withdrawal = await user.client.post('/api/v3/balance/withdrawal-LTT/CRYPTOMEMO', {
      amount: '60',
      address: ethOutside,
      code: nextCode(clock, user.totpSecret),
    });
    expect(withdrawal.json().message).toBe(message);
    const address = await user.client.get('/api/v2/profile/address/LTT');
    expect(address.statusCode).toBe(422);
    expect(address.json().message).toBe(message);
    const detail = (await user.client.get('/api/v3/profile/balance/LTT')).json();
    expect(detail).toMatchObject({ isDepositOn: false, isWithdrawOn: false, mainBalance: '1000' });
    await user.client.post('/api/dev/currencies/switch', {
      ticker: 'LTT',
      deposit: true,
      withdraw: true,
    });
    expect((await user.client.get('/api/v2/profile/address/LTT')).statusCode).toBe(200);
    expect(mainOf(app, user.user.id, 'LTT').available).toBe(amountFromDecimal('1000', 8));
  });
});
