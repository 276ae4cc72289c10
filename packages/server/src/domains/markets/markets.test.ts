import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { createSignedInUser, type TestUser } from '../auth/testClient.js';
import { buildTradingApp, fundTrade, placeLimit } from '../orders/tradingTestKit.js';

const testDb = useTestDb();
let app: FastifyInstance;
let user: TestUser;

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
  user = await createSignedInUser(app);
  const other = await createSignedInUser(app);
  await fundTrade(app, user.user.id, 'ETH', '10');
  await fundTrade(app, other.user.id, 'USDT', '100000');
  await placeLimit(user.client, 'ETH_USDT', 'sell', '2000', '1');
  await placeLimit(other.client, 'ETH_USDT', 'buy', '2000', '0.5');
  await placeLimit(other.client, 'ETH_USDT', 'buy', '1990', '2');
});

afterAll(async () => {
  await app.close();
});

describe('GET /api/v2/market-list', () => {
  it('lists the markets with sizes, fees, tabs and 24 h figures', async () => {
    const response = await app.inject({ url: '/api/v2/market-list' });
    expect(response.statusCode).toBe(200);
    const list = response.json();
    const btc = list.items.find((item: { name: string }) => item.name === 'BTC_USDT');
    expect(btc).toMatchObject({
      stock: 'BTC',
      money: 'USDT',
      min_amount: '0.0001',
      tick_size: '0.01',
      lot_size: '0.00001',
      price_precision: 2,
      amount_precision: 5,
      maker_fee: '0.001',
      taker_fee: '0.002',
      tabs: ['STABLE'],
      favorite: false,
      margin: true,
    });
    const eth = list.items.find((item: { name: string }) => item.name === 'ETH_USDT');
    expect(eth.market).toEqual({
      volume: '0.5',
      volumeInMoney: '1000',
      price: '2000',
      change: '0',
    });
    expect(list.currenciesMap.BTC).toBe('Bitcoin');
    expect(list.currenciesTopList).toEqual(['BTC', 'ETH', 'USDT', 'LTT']);
    expect(list.currenciesImages.LTT).toBe('/api/currencies/LTT.svg');
    const tabs = Object.fromEntries(
      list.tabs.map((tab: { name: string; pairs: string[] }) => [tab.name, tab.pairs]),
    );
    expect(tabs.BTC).toContain('ETH_BTC');
    expect(tabs.FIAT).toEqual(expect.arrayContaining(['BTC_USD', 'BTC_EUR']));
    expect(tabs.ALTS).toContain('PLC_LTT');
    expect(tabs.FAVORITE).toEqual([]);
  });

  it('serves an image for every currency', async () => {
    const response = await app.inject({ url: '/api/currencies/LTT.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('image/svg+xml');
    expect(response.body).toContain('>LTT<');
    expect((await app.inject({ url: '/api/currencies/x.svg' })).statusCode).toBe(404);
  });
});

describe('favorites', () => {
  it('adds, lists and removes, and marks the market list', async () => {
    const added = await user.client.post('/api/v2/favorites?pair=ETH_BTC', {});
    expect(added.statusCode).toBe(200);
    await user.client.post('/api/v2/favorites', { pair: 'BTC_USDT' });
    await user.client.post('/api/v2/favorites', { pair: 'BTC_USDT' });
    expect((await user.client.get('/api/v2/favorites')).json()).toEqual({
      favorites: ['ETH_BTC', 'BTC_USDT'],
    });
    const list = (await user.client.get('/api/v2/market-list')).json();
    const favorite = list.tabs.find((tab: { name: string }) => tab.name === 'FAVORITE');
    expect(favorite.pairs.sort()).toEqual(['BTC_USDT', 'ETH_BTC']);
    const removed = await user.client.delete('/api/v2/favorites/ETH_BTC');
    expect(removed.json()).toEqual({ favorites: ['BTC_USDT'] });
  });

  it('refuses an unknown pair and visitors', async () => {
    const unknown = await user.client.post('/api/v2/favorites', { pair: 'NOPE_USDT' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ pair: ['Market not found'] });
    expect((await app.inject({ url: '/api/v2/favorites' })).statusCode).toBe(401);
  });
});

describe('trade settings and aggregator statistics', () => {
  it('gives the fee rates, discounted in the platform token', async () => {
    const response = await user.client.get('/api/v2/trade/settings');
    expect(response.json()).toEqual({
      fee: '0.002',
      fee_plc: '0.001',
      fee_plc_buy: '0.001',
      maker_fee: '0.001',
      taker_fee: '0.002',
      isCustomFeeEnabled: false,
    });
    expect((await app.inject({ url: '/api/v2/trade/settings?pair=X_Y' })).statusCode).toBe(404);
  });

  it('answers the CoinGecko and CoinMarketCap formats', async () => {
    const gecko = (await app.inject({ url: '/api/v2/coingecko/stats' })).json();
    expect(gecko.find((t: { ticker_id: string }) => t.ticker_id === 'ETH_USDT')).toEqual({
      ticker_id: 'ETH_USDT',
      base_currency: 'ETH',
      target_currency: 'USDT',
      last_price: '2000',
      base_volume: '0.5',
      target_volume: '1000',
      bid: '1990',
      ask: '2000',
      high: '2000',
      low: '2000',
    });
    const cmc = (await app.inject({ url: '/api/v2/coinmarketcap/stats' })).json();
    expect(
      cmc.find((t: { trading_pairs: string }) => t.trading_pairs === 'ETH_USDT'),
    ).toMatchObject({ lowest_ask: '2000', highest_bid: '1990', quote_volume: '1000' });
    const supply = (await app.inject({ url: '/api/v2/total_supply_tokens' })).json();
    expect(supply.find((row: { ticker: string }) => row.ticker === 'ETH')).toEqual({
      ticker: 'ETH',
      total_supply: '10',
    });
  });
});
