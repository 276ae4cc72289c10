import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapEngine } from '../../engineHost/bootstrap.js';
import { silentLogger } from '../../engineHost/hostLogger.js';
import { testConfig } from '../../testing/testConfig.js';
import { useTestDb } from '../../testing/testDb.js';
import type { TestUser } from '../auth/testClient.js';
import { buildTradingApp, fundedTrader, placeLimit } from './tradingTestKit.js';

const testDb = useTestDb();
let app: FastifyInstance;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  const engine = { ...testConfig().engine, openOrdersPerUserMax: 2 };
  app = await buildTradingApp(testDb.current, { engine });
  alice = await fundedTrader(app);
  bob = await fundedTrader(app);
});

afterAll(async () => {
  await app.close();
});

describe('the cap on open orders per user', () => {
  it('is set in the engine from the configuration at start', () => {
    expect(app.engineHost.engine.limits()).toEqual({ openOrdersPerUserMax: 2 });
  });

  it('refuses a resting order past it with the message on the form, and takes a market order', async () => {
    await placeLimit(alice.client, 'BTC_USDT', 'buy', '29000', '0.01');
    await placeLimit(alice.client, 'BTC_USDT', 'buy', '29001', '0.01');
    const balance = async () =>
      ((await alice.client.get('/api/v3/profile/balance')).json() as { ticker: string }[]).find(
        (row) => row.ticker === 'USDT',
      );
    const before = await balance();
    const refused = await alice.client.post('/api/v2/order', {
      pair: 'BTC_USDT',
      direction: 'buy',
      price: '29002',
      amount: '0.01',
    });
    expect(refused.statusCode).toBe(422);
    const message = 'At most 2 open orders per user: cancel some first';
    expect(refused.json()).toMatchObject({ message, errors: { _form: [message] } });
    const stop = await alice.client.post('/api/v2/stop-limit-order', {
      pair: 'BTC_USDT',
      direction: 'buy',
      stop_price: '31000',
      price: '31100',
      amount: '0.01',
    });
    expect(stop.statusCode).toBe(422);
    expect(await balance()).toEqual(before);

    await placeLimit(bob.client, 'BTC_USDT', 'sell', '30000', '0.01');
    const market = await alice.client.post('/api/v2/order/put_market', {
      pair: 'BTC_USDT',
      direction: 'buy',
      amount: '0.01',
    });
    expect(market.statusCode).toBe(201);
  });

  it('follows the configuration at the next start, and 0 lifts it', async () => {
    await bootstrapEngine(app.engineHost, app.db, {
      fundDemoUsers: false,
      logger: silentLogger,
      openOrdersPerUserMax: 0,
    });
    expect(app.engineHost.engine.limits()).toEqual({ openOrdersPerUserMax: 0 });
    await placeLimit(alice.client, 'BTC_USDT', 'buy', '29002', '0.01');
    await placeLimit(alice.client, 'BTC_USDT', 'buy', '29003', '0.01');
  });
});
