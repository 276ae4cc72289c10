import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { compareDecimals } from '../../realtime/testSocket.js';
import { testConfig } from '../../testing/testConfig.js';
import { useTestDb } from '../../testing/testDb.js';
import { buildTradingApp } from '../orders/tradingTestKit.js';
import { DemoMaker } from './demoMaker.js';

const testDb = useTestDb();
let app: FastifyInstance;
let maker: DemoMaker;

// A seeded generator: the visits are the same on every run.
let seed = 7;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

async function journalLength(): Promise<number> {
  const row = await testDb.current.db
    .selectFrom('engine_journal')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
  maker = await DemoMaker.open({
    db: app.db,
    host: app.engineHost,
    markets: app.marketDirectory,
    logger: app.log,
    busyMarkets: ['BTC_USDT'],
    busyEveryMs: 1000,
    quietEveryMs: 1000,
    random,
  });
});

afterAll(async () => {
  await maker.stop();
  await app.close();
});

describe('demo liquidity', () => {
  it('builds a two-sided book around the reference price on the first visit', async () => {
    await maker.visit('BTC_USDT');
    const book = (await app.inject({ url: '/api/v2/depth/BTC_USDT' })).json();
    expect(book.asks.length).toBeGreaterThanOrEqual(8);
    expect(book.bids.length).toBeGreaterThanOrEqual(8);
    expect(compareDecimals(book.bids[0][0], book.asks[0][0])).toBe(-1);
    expect(compareDecimals(book.asks[0][0], '48000')).toBe(1);
    expect(compareDecimals(book.asks[0][0], '72000')).toBe(-1);
  });

  it('prints trades and keeps the book with a few commands per visit', async () => {
    const before = await journalLength();
    for (let i = 0; i < 20; i++) await maker.visit('BTC_USDT');
    const commands = (await journalLength()) - before;
    expect(commands).toBeGreaterThan(20);
    expect(commands).toBeLessThanOrEqual(20 * 10);
    const trades = (await app.inject({ url: '/api/v2/history/BTC_USDT' })).json();
    expect(trades.total).toBeGreaterThan(5);
    const book = (await app.inject({ url: '/api/v2/depth/BTC_USDT' })).json();
    expect(book.asks.length).toBeGreaterThanOrEqual(6);
    expect(book.bids.length).toBeGreaterThanOrEqual(6);
    expect(compareDecimals(book.bids[0][0], book.asks[0][0])).toBe(-1);
  });

  it('runs with the app when DEMO_MAKER is on and stops cleanly with it', async () => {
    const { db, dialect } = testDb.current;
    await app.close();
    app = await buildApp(testConfig({ demoMaker: true }), { db, dialect });
    await app.ready();
    const lastBefore = app.engineHost.lastJournalSeq;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(app.engineHost.lastJournalSeq).toBeGreaterThan(lastBefore);
    await app.close();
    const afterClose = await journalLength();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await journalLength()).toBe(afterClose);
    app = await buildTradingApp(testDb.current);
  });
});
