import { describe, expect, it } from 'vitest';
import { btc, CORES, type CommandInput, TestExchange } from './fixtures.js';

function totals(x: TestExchange, asset: string) {
  return x.engine.assetTotals().find((t) => t.asset === asset)!;
}

describe.each(CORES)('balance commands on the %s core', (_core, makeEngine) => {
  it('deposit credits main, once per business id', () => {
    const x = TestExchange.standard(makeEngine());
    const cmd = {
      type: 'balance.deposit',
      userId: 7,
      asset: 'BTC',
      amount: btc('2'),
      businessId: 'tx-1',
    } as const;
    const first = x.ok(cmd);
    expect(first.events).toHaveLength(1);
    expect(first.events[0]).toMatchObject({
      type: 'balance',
      business: 'deposit',
      businessId: 'tx-1',
      legs: [
        { owner: 'external', asset: 'BTC', availableDelta: -btc('2') },
        { owner: 7, account: 'main', asset: 'BTC', availableDelta: btc('2'), available: btc('2') },
      ],
    });
    const again = x.ok(cmd);
    expect(again.events).toEqual([]);
    expect(again.result).toEqual(first.result);
    expect(x.engine.balances(7).BTC?.main.available).toBe(btc('2'));
    expect(x.rejected({ ...cmd, amount: btc('3') }).code).toBe('business_id_conflict');
    expect(totals(x, 'BTC')).toMatchObject({ total: btc('2'), deposited: btc('2') });
  });

  it('withdraw: hold, then complete with a fee, or release', () => {
    const x = TestExchange.standard(makeEngine());
    x.ok({ type: 'balance.deposit', userId: 1, asset: 'BTC', amount: btc('1'), businessId: 'd' });
    x.ok({
      type: 'balance.withdrawHold',
      userId: 1,
      asset: 'BTC',
      amount: btc('0.4'),
      businessId: 'w1',
    });
    expect(x.engine.balances(1).BTC?.main).toEqual({ available: btc('0.6'), frozen: btc('0.4') });
    expect(
      x.rejected({
        type: 'balance.withdrawHold',
        userId: 1,
        asset: 'BTC',
        amount: btc('0.7'),
        businessId: 'w2',
      }).code,
    ).toBe('insufficient_balance');
    x.ok({ type: 'balance.withdrawComplete', businessId: 'w1', fee: btc('0.001') });
    expect(x.engine.balances(1).BTC?.main).toEqual({ available: btc('0.6'), frozen: 0n });
    expect(totals(x, 'BTC')).toMatchObject({ total: btc('0.601'), withdrawn: btc('0.399') });
    expect(x.rejected({ type: 'balance.withdrawRelease', businessId: 'w1' }).code).toBe(
      'withdraw_finished',
    );
    expect(x.rejected({ type: 'balance.withdrawRelease', businessId: 'nope' }).code).toBe(
      'withdraw_not_found',
    );
    x.ok({
      type: 'balance.withdrawHold',
      userId: 1,
      asset: 'BTC',
      amount: btc('0.5'),
      businessId: 'w3',
    });
    x.ok({ type: 'balance.withdrawRelease', businessId: 'w3' });
    expect(x.engine.balances(1).BTC?.main).toEqual({ available: btc('0.6'), frozen: 0n });
  });

  it('withdraw: a fee below zero or above the held amount is refused and changes nothing', () => {
    const x = TestExchange.standard(makeEngine());
    x.ok({ type: 'balance.deposit', userId: 1, asset: 'BTC', amount: btc('1'), businessId: 'd' });
    const hold = {
      type: 'balance.withdrawHold',
      userId: 1,
      asset: 'BTC',
      businessId: 'w',
    } as const;
    x.ok({ ...hold, amount: btc('0.4') });
    const before = x.engine.stateHash();
    const seq = x.engine.lastEventSeq;
    for (const fee of [-1n, btc('0.4') + 1n, 1, '1']) {
      const complete = { type: 'balance.withdrawComplete', businessId: 'w', fee };
      const rejection = x.rejected(complete as unknown as CommandInput);
      expect(rejection).toMatchObject({ code: 'invalid_fee', field: 'fee' });
      expect(x.engine.stateHash()).toBe(before);
      expect(x.engine.lastEventSeq).toBe(seq);
    }
    // The whole held amount as the fee: nothing leaves the exchange.
    const all = x.ok({ type: 'balance.withdrawComplete', businessId: 'w', fee: btc('0.4') });
    expect(all.events[0]).toMatchObject({
      legs: [
        { owner: 1, account: 'main', asset: 'BTC', availableDelta: 0n, frozenDelta: -btc('0.4') },
        { owner: 'fees', account: 'main', asset: 'BTC', availableDelta: btc('0.4') },
      ],
    });
    expect(totals(x, 'BTC')).toMatchObject({ total: btc('1'), withdrawn: 0n });
  });

  it('a transfer, a freeze or a withdrawal may take all that is available, not a unit more', () => {
    const x = TestExchange.standard(makeEngine());
    x.ok({ type: 'balance.deposit', userId: 1, asset: 'BTC', amount: btc('1'), businessId: 'd' });
    const transfer = { type: 'balance.transfer', userId: 1, asset: 'BTC' } as const;
    const toTrade = { ...transfer, from: 'main', to: 'trade' } as const;
    const freeze = { type: 'balance.freeze', userId: 1, asset: 'BTC', purpose: 'staking' } as const;
    const before = x.engine.stateHash();
    const over = btc('1') + 1n;
    expect(x.rejected({ ...toTrade, amount: over, businessId: 't1' }).code).toBe(
      'insufficient_balance',
    );
    expect(x.rejected({ ...freeze, account: 'main', amount: over, businessId: 'f1' }).code).toBe(
      'insufficient_balance',
    );
    const withdraw = { type: 'balance.withdrawHold', userId: 1, asset: 'BTC' } as const;
    expect(x.rejected({ ...withdraw, amount: over, businessId: 'w1' }).code).toBe(
      'insufficient_balance',
    );
    expect(x.engine.stateHash()).toBe(before);
    x.ok({ ...toTrade, amount: btc('1'), businessId: 't2' });
    x.ok({ ...freeze, account: 'trade', amount: btc('1'), businessId: 'f2' });
    expect(x.engine.balances(1).BTC?.trade).toEqual({ available: 0n, frozen: btc('1') });
    x.ok({ type: 'balance.deposit', userId: 1, asset: 'BTC', amount: btc('1'), businessId: 'd2' });
    x.ok({ ...withdraw, amount: btc('1'), businessId: 'w2' });
    expect(x.engine.balances(1).BTC?.main).toEqual({ available: 0n, frozen: btc('1') });
  });

  it('transfer between two of a user’s accounts', () => {
    const x = TestExchange.standard(makeEngine());
    x.ok({ type: 'balance.deposit', userId: 1, asset: 'BTC', amount: btc('1'), businessId: 'd' });
    const base = { type: 'balance.transfer', userId: 1, asset: 'BTC' } as const;
    x.ok({ ...base, amount: btc('0.3'), from: 'main', to: 'margin', businessId: 't1' });
    expect(x.engine.balances(1).BTC?.margin.available).toBe(btc('0.3'));
    expect(
      x.rejected({ ...base, amount: btc('0.8'), from: 'main', to: 'trade', businessId: 't2' }).code,
    ).toBe('insufficient_balance');
    expect(
      x.rejected({ ...base, amount: btc('0.1'), from: 'main', to: 'main', businessId: 't3' }).code,
    ).toBe('invalid_account');
  });

  it('freeze for another product, then unfreeze or settle to another user', () => {
    const x = TestExchange.standard(makeEngine());
    x.ok({ type: 'balance.deposit', userId: 1, asset: 'BTC', amount: btc('1'), businessId: 'd' });
    const freeze = {
      type: 'balance.freeze',
      userId: 1,
      asset: 'BTC',
      account: 'main',
      purpose: 'voucher',
    } as const;
    x.ok({ ...freeze, amount: btc('0.2'), businessId: 'v1' });
    x.ok({ ...freeze, amount: btc('0.3'), businessId: 'v2' });
    expect(x.engine.balances(1).BTC?.main).toEqual({ available: btc('0.5'), frozen: btc('0.5') });
    x.ok({ type: 'balance.unfreeze', businessId: 'v1' });
    x.ok({ type: 'balance.settleFreeze', businessId: 'v2', toUserId: 2 });
    expect(x.engine.balances(1).BTC?.main).toEqual({ available: btc('0.7'), frozen: 0n });
    expect(x.engine.balances(2).BTC?.main.available).toBe(btc('0.3'));
    expect(x.rejected({ type: 'balance.unfreeze', businessId: 'v2' }).code).toBe('freeze_finished');
  });

  it('a freeze on the trade account goes back there, or is settled into the other user’s main', () => {
    const x = TestExchange.standard(makeEngine());
    x.ok({ type: 'balance.deposit', userId: 1, asset: 'BTC', amount: btc('1'), businessId: 'd' });
    const transfer = {
      type: 'balance.transfer',
      userId: 1,
      asset: 'BTC',
      amount: btc('1'),
    } as const;
    x.ok({ ...transfer, from: 'main', to: 'trade', businessId: 't' });
    const freeze = { type: 'balance.freeze', userId: 1, asset: 'BTC', account: 'trade' } as const;
    x.ok({ ...freeze, amount: btc('0.2'), businessId: 'v1', purpose: 'loan' });
    x.ok({ ...freeze, amount: btc('0.3'), businessId: 'v2', purpose: 'loan' });
    x.ok({ type: 'balance.unfreeze', businessId: 'v1' });
    expect(x.engine.balances(1).BTC?.trade).toEqual({ available: btc('0.7'), frozen: btc('0.3') });
    x.ok({ type: 'balance.settleFreeze', businessId: 'v2', toUserId: 2 });
    expect(x.engine.balances(1).BTC?.trade).toEqual({ available: btc('0.7'), frozen: 0n });
    expect(x.engine.balances(1).BTC?.main).toEqual({ available: 0n, frozen: 0n });
    expect(x.engine.balances(2).BTC?.main).toEqual({ available: btc('0.3'), frozen: 0n });
    expect(x.engine.balances(2).BTC?.trade).toEqual({ available: 0n, frozen: 0n });
  });
});

describe.each(CORES)('openFreezes on the %s core', (_core, makeEngine) => {
  it('lists the open freezes of one purpose until they are released or settled', () => {
    const x = TestExchange.standard(makeEngine());
    x.ok({ type: 'balance.deposit', userId: 1, asset: 'BTC', amount: btc('1'), businessId: 'd' });
    const freeze = { type: 'balance.freeze', userId: 1, asset: 'BTC', account: 'main' } as const;
    x.ok({ ...freeze, amount: btc('0.2'), businessId: 'v:b', purpose: 'voucher' });
    x.ok({ ...freeze, amount: btc('0.1'), businessId: 'v:a', purpose: 'voucher' });
    x.ok({ ...freeze, amount: btc('0.3'), businessId: 's:1', purpose: 'staking' });
    expect(x.engine.openFreezes('voucher')).toEqual([
      {
        businessId: 'v:a',
        userId: 1,
        asset: 'BTC',
        account: 'main',
        amount: btc('0.1'),
        purpose: 'voucher',
      },
      {
        businessId: 'v:b',
        userId: 1,
        asset: 'BTC',
        account: 'main',
        amount: btc('0.2'),
        purpose: 'voucher',
      },
    ]);
    x.ok({ type: 'balance.unfreeze', businessId: 'v:a' });
    x.ok({ type: 'balance.settleFreeze', businessId: 'v:b', toUserId: 2 });
    expect(x.engine.openFreezes('voucher')).toEqual([]);
    expect(x.engine.openFreezes('staking').map((f) => f.businessId)).toEqual(['s:1']);
  });
});

describe.each(CORES)('a business id used again on the %s core', (_core, makeEngine) => {
  const deposit = {
    type: 'balance.deposit',
    userId: 1,
    asset: 'BTC',
    amount: btc('1'),
    businessId: 'r',
    business: 'bonus',
  } as const;
  const hold = { type: 'balance.withdrawHold', userId: 1, asset: 'BTC', amount: btc('1') } as const;
  const freeze = {
    type: 'balance.freeze',
    userId: 1,
    asset: 'BTC',
    account: 'main',
    amount: btc('1'),
    purpose: 'loan',
  } as const;
  const other = { userId: 2, asset: 'USDT', amount: btc('2') };
  /** What runs first (the last command is the one repeated), and the fields a repeat changes. */
  const cases: [string, CommandInput[], Record<string, unknown>][] = [
    ['deposit', [deposit], { ...other, business: 'airdrop' }],
    ['withdrawHold', [{ ...hold, businessId: 'r' }], other],
    [
      'transfer',
      [
        {
          type: 'balance.transfer',
          userId: 1,
          asset: 'BTC',
          amount: btc('1'),
          from: 'main',
          to: 'trade',
          businessId: 'r',
        },
      ],
      { ...other, from: 'margin', to: 'margin' },
    ],
    ['freeze', [{ ...freeze, businessId: 'r' }], { ...other, account: 'trade', purpose: 'stake' }],
    [
      'withdrawComplete',
      [
        { ...hold, businessId: 'h' },
        { type: 'balance.withdrawComplete', businessId: 'h', fee: 0n },
      ],
      { fee: 1n },
    ],
    [
      'settleFreeze',
      [
        { ...freeze, businessId: 'f' },
        { type: 'balance.settleFreeze', businessId: 'f', toUserId: 2 },
      ],
      { toUserId: 3 },
    ],
  ];

  it.each(cases)('%s: a repeat asking for anything else is a conflict', (_name, first, changes) => {
    for (const [field, value] of Object.entries(changes)) {
      const x = TestExchange.standard(makeEngine());
      for (const user of [1, 2]) {
        x.ok({ ...deposit, userId: user, amount: btc('5'), businessId: `d${user}` });
        x.ok({ ...deposit, userId: user, asset: 'USDT', amount: btc('5'), businessId: `u${user}` });
      }
      for (const cmd of first) x.ok(cmd);
      const repeated = first[first.length - 1]!;
      const before = x.engine.stateHash();
      const changed = { ...repeated, [field]: value } as CommandInput;
      expect(x.rejected(changed).code, field).toBe('business_id_conflict');
      expect(x.apply(repeated).ok).toBe(true);
      expect(x.engine.stateHash()).toBe(before);
    }
  });
});
