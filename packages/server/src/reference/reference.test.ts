import { amountToDecimal, pairTabs, pairTabsOf } from '@lattice/contracts';
import argon2 from 'argon2';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../testing/testDb.js';
import { demoUserSeeds } from './demoUsers.js';
import { loadDemoUsers, loadReferenceData } from './reference.repo.js';
import { seedReferenceData } from './reference.seed.js';
import type { ReferenceData } from './reference.types.js';

const testDb = useTestDb();
// Cheap parameters: these tests check that a real Argon2id hash is stored, not its cost.
const hashPassword = (password: string) =>
  argon2.hash(password, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1 });
let reference: ReferenceData;

beforeAll(async () => {
  await seedReferenceData(testDb.current.db, { demoUsers: true, hashPassword });
  reference = await loadReferenceData(testDb.current.db);
});

describe('seeded reference data', () => {
  it('has the assets of the exchange with their decimals', () => {
    const decimals = Object.fromEntries(reference.assets.map((a) => [a.ticker, a.decimals]));
    expect(Object.keys(decimals).sort()).toEqual(
      [
        'BNB',
        'BTC',
        'CNB',
        'ETH',
        'EUR',
        'LTT',
        'PLC',
        'TRX',
        'USD',
        'USDC',
        'USDN',
        'USDT',
      ].sort(),
    );
    expect(decimals).toMatchObject({ BTC: 8, ETH: 8, LTT: 8, EUR: 2, USD: 2 });
    expect(reference.assets.slice(0, 4).map((a) => a.ticker)).toEqual([
      'BTC',
      'ETH',
      'USDT',
      'LTT',
    ]);
    expect(reference.fiatTickers).toEqual(['EUR', 'USD']);
    expect(reference.stableTickers).toEqual(['USDT', 'USDC', 'USDN']);
    expect(reference.platformTicker).toBe('LTT');
  });

  it('has the networks, memo networks marked, and a default network for every crypto asset', () => {
    expect(reference.networks.map((n) => n.name)).toEqual([
      'Bitcoin',
      'BNB Smart Chain',
      'BNB Beacon Chain',
      'Ethereum',
      'Cryptounit',
      'Tron',
    ]);
    const memo = reference.networks.filter((n) => n.usesMemo).map((n) => n.name);
    expect(memo).toEqual(['BNB Beacon Chain', 'Cryptounit']);
    const firstNetwork = (ticker: string) =>
      reference.assetNetworks.find((row) => row.assetTicker === ticker)?.networkCode;
    expect(firstNetwork('BTC')).toBe('bitcoin');
    for (const asset of reference.assets.filter((a) => !a.isFiat)) {
      expect(firstNetwork(asset.ticker), asset.ticker).toBeDefined();
    }
  });

  it('has the required markets, every pair-list tab filled, and the page-global pairs', () => {
    const names = reference.markets.map((m) => m.name);
    for (const name of [
      'BTC_USDT',
      'ETH_USDT',
      'LTT_USDT',
      'ETH_BTC',
      'LTT_BTC',
      'BTC_EUR',
      'USDC_USDT',
    ]) {
      expect(names).toContain(name);
    }
    const filled = new Set(reference.markets.flatMap((m) => pairTabsOf(m.money, reference)));
    expect([...filled].sort()).toEqual(pairTabs.filter((tab) => tab !== 'FAVORITE').sort());
    expect(names).toContain(reference.defaultPair);
    expect(reference.defaultPair).toBe('BTC_USDT');
    expect(reference.lttPair).toBe('LTT_USDT');
  });

  it('gives every market sizes that fit its assets and the default fees', () => {
    const decimals = new Map(reference.assets.map((a) => [a.ticker, a.decimals]));
    for (const market of reference.markets) {
      expect(market.name).toBe(`${market.stock}_${market.money}`);
      expect(market.tickSize > 0n && market.lotSize > 0n, market.name).toBe(true);
      expect(market.minAmount % market.lotSize, market.name).toBe(0n);
      expect(market.pricePrecision).toBeLessThanOrEqual(decimals.get(market.money) ?? -1);
      expect(market.amountPrecision).toBeLessThanOrEqual(decimals.get(market.stock) ?? -1);
      expect([market.makerFeePpm, market.takerFeePpm]).toEqual([1000, 2000]);
    }
    const btcUsdt = reference.markets.find((m) => m.name === 'BTC_USDT');
    expect(btcUsdt && amountToDecimal(btcUsdt.tickSize, 6)).toBe('0.01');
    expect(btcUsdt && amountToDecimal(btcUsdt.lotSize, 8)).toBe('0.00001');
  });
});

describe('seeding again', () => {
  it('adds nothing twice and keeps what an operator changed', async () => {
    const { db } = testDb.current;
    await db
      .updateTable('markets')
      .set({ taker_fee_ppm: 2500 })
      .where('name', '=', 'BTC_USDT')
      .execute();
    await seedReferenceData(db, { demoUsers: true, hashPassword });
    const again = await loadReferenceData(db);
    expect(again.markets).toHaveLength(reference.markets.length);
    expect(again.assets).toHaveLength(reference.assets.length);
    expect(again.markets.find((m) => m.name === 'BTC_USDT')?.takerFeePpm).toBe(2500);
    const users = await db.selectFrom('users').select('email').execute();
    expect(users).toHaveLength(demoUserSeeds.length);
  });
});

describe('demo users', () => {
  it('exist with Argon2id hashes of their passwords and their funding in minor units', async () => {
    const { db } = testDb.current;
    for (const seed of demoUserSeeds) {
      const row = await db
        .selectFrom('users')
        .select(['password_hash', 'email_verified_at'])
        .where('email', '=', seed.email)
        .executeTakeFirstOrThrow();
      expect(row.password_hash.startsWith('$argon2id$')).toBe(true);
      expect(await argon2.verify(row.password_hash, seed.password)).toBe(true);
      expect(row.email_verified_at).not.toBeNull();
    }
    const demoUsers = await loadDemoUsers(db, reference);
    expect(demoUsers.map((user) => user.email)).toEqual(demoUserSeeds.map((seed) => seed.email));
    const alice = demoUsers[0];
    expect(alice?.funding).toContainEqual({ ticker: 'BTC', amount: 10n * 10n ** 8n });
    expect(alice?.funding).toContainEqual({ ticker: 'EUR', amount: 100_000n * 100n });
  });
});
