import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { testConfig } from '../../testing/testConfig.js';
import { useTestDb } from '../../testing/testDb.js';
import { createSignedInUser, type TestUser } from '../auth/testClient.js';
import { buildTradingApp, fundTrade, placeLimit } from '../orders/tradingTestKit.js';

const testDb = useTestDb();
let app: FastifyInstance;
let seller: TestUser;
let buyer: TestUser;

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
  seller = await createSignedInUser(app);
  buyer = await createSignedInUser(app);
  await fundTrade(app, seller.user.id, 'BTC', '10');
  await fundTrade(app, buyer.user.id, 'USDT', '1000000');
  // A book and three trades: 0.1 at 30000, 0.2 at 30010, 0.05 at 30020.
  await placeLimit(seller.client, 'BTC_USDT', 'sell', '30000', '0.1');
  await placeLimit(seller.client, 'BTC_USDT', 'sell', '30010', '0.2');
  await placeLimit(seller.client, 'BTC_USDT', 'sell', '30020', '0.5');
  await placeLimit(buyer.client, 'BTC_USDT', 'buy', '30020', '0.35');
  await placeLimit(buyer.client, 'BTC_USDT', 'buy', '29990', '1.5');
  await placeLimit(buyer.client, 'BTC_USDT', 'buy', '29980', '0.25');
});

afterAll(async () => {
  await app.close();
});

describe('GET /api/v2/depth/{pair}', () => {
  it('answers the book with plain decimals, best first', async () => {
    const response = await app.inject({ url: '/api/v2/depth/BTC_USDT' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      asks: [['30020', '0.45']],
      bids: [
        ['29990', '1.5'],
        ['29980', '0.25'],
      ],
    });
  });

  it('pages with limit and offset', async () => {
    const response = await app.inject({ url: '/api/v2/depth/BTC_USDT?limit=1&offset=1' });
    expect(response.json()).toEqual({ asks: [], bids: [['29980', '0.25']] });
  });

  it('answers 404 for an unknown pair and 422 for a bad limit', async () => {
    expect((await app.inject({ url: '/api/v2/depth/NOPE_USDT' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/v2/depth/btc' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/v2/depth/BTC_USDT?limit=0' })).statusCode).toBe(422);
  });
});

describe('trades, ticker and klines', () => {
  it('lists public trades newest first, the taker side as type', async () => {
    const response = await app.inject({ url: '/api/v2/history/BTC_USDT?limit=2' });
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page).toMatchObject({ total: 3, offset: 0, limit: 2 });
    expect(page.records.map((t: { price: string; amount: string }) => [t.price, t.amount])).toEqual(
      [
        ['30020', '0.05'],
        ['30010', '0.2'],
      ],
    );
    expect(page.records[0]).toMatchObject({ type: 'buy', total: '1501' });
    const older = (await app.inject({ url: '/api/v2/history/BTC_USDT?offset=2' })).json();
    expect(older.records.map((t: { price: string }) => t.price)).toEqual(['30000']);
  });

  it('gives the rolling 24 h statistics per pair', async () => {
    const response = await app.inject({ url: '/api/v2/ticker?pair=BTC_USDT' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      {
        name: 'BTC_USDT',
        open: '30000',
        last: '30020',
        high: '30020',
        low: '30000',
        volume: '0.35',
        deal: '10503',
        change: '0.06',
      },
    ]);
    const all = (await app.inject({ url: '/api/v2/ticker' })).json();
    expect(all.length).toBeGreaterThan(20);
    expect(all.find((row: { name: string }) => row.name === 'ETH_USDT')).toMatchObject({
      open: '0',
      last: '0',
      volume: '0',
      change: '0',
    });
  });

  it('builds one-minute candles from the trades', async () => {
    const now = Math.floor(Date.now() / 1000);
    const response = await app.inject({
      url: `/api/v2/kline/BTC_USDT?interval=60&start=${now - 300}&end=${now}`,
    });
    expect(response.statusCode).toBe(200);
    const rows = response.json() as unknown[][];
    const total = rows.reduce(
      (sum: bigint, row) => sum + BigInt(String(row[5]).replace('.', '')),
      0n,
    );
    expect(total).toBe(35n);
    expect(rows[0]?.[7]).toBe('BTC_USDT');
    expect(rows[0]?.[1]).toBe('30000');
    expect(rows[rows.length - 1]?.[2]).toBe('30020');
    const week = await app.inject({ url: `/api/v2/kline/BTC_USDT?interval=604800&end=${now}` });
    expect(week.json()).toHaveLength(1);
    expect((week.json() as unknown[][])[0]?.slice(1, 7)).toEqual([
      '30000',
      '30020',
      '30020',
      '30000',
      '0.35',
      '10503',
    ]);
  });

  it('refuses an interval outside the list', async () => {
    const response = await app.inject({ url: '/api/v2/kline/BTC_USDT?interval=61' });
    expect(response.statusCode).toBe(422);
  });

  it('keeps candles across a restart and rebuilds them from trades', async () => {
    await app.close();
    const { db, dialect } = testDb.current;
    // Lose the last write of the candles: the trades table still holds every trade.
    await db.deleteFrom('klines').execute();
    await db.deleteFrom('market_data_cursors').execute();
    app = await buildApp(testConfig({ demoMaker: false }), { db, dialect });
    const week = await app.inject({ url: '/api/v2/kline/BTC_USDT?interval=604800' });
    expect((week.json() as unknown[][])[0]?.slice(1, 7)).toEqual([
      '30000',
      '30020',
      '30020',
      '30000',
      '0.35',
      '10503',
    ]);
    const ticker = (await app.inject({ url: '/api/v2/ticker?pair=BTC_USDT' })).json();
    expect(ticker[0]).toMatchObject({ open: '30000', last: '30020', volume: '0.35' });
    const trades = (await app.inject({ url: '/api/v2/history/BTC_USDT' })).json();
    expect(trades.total).toBe(3);
  });
});
