import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bootstrapEngine,
  ORDER_AMOUNT_MAX,
  ORDER_VALUE_MAX,
  scaledCap,
} from '../../engineHost/bootstrap.js';
import { silentLogger } from '../../engineHost/hostLogger.js';
import { useTestDb } from '../../testing/testDb.js';
import type { TestUser } from '../auth/testClient.js';
import { buildTradingApp, fundedTrader } from './tradingTestKit.js';

const testDb = useTestDb();
let app: FastifyInstance;
let alice: TestUser;

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
  alice = await fundedTrader(app);
});

afterAll(async () => {
  await app.close();
});

/** A limit order of Alice's, as the web client sends it; the raw response. */
function order(pair: string, direction: 'buy' | 'sell', price: string, amount: string) {
  return alice.client.post('/api/v2/order', { pair, direction, price, amount });
}

describe('the caps on one order value and amount', () => {
  it('is set on every market at start', () => {
    const engine = app.engineHost.engine;
    const decimals = new Map(engine.assets().map((a) => [a.asset, a.decimals]));
    const markets = engine.markets();
    expect(markets.length).toBeGreaterThan(10);
    // No asset of the catalogue has more than eight decimals: the caps are the same for all.
    expect(Math.max(...decimals.values())).toBeLessThanOrEqual(8);
    for (const market of markets) {
      expect(market.orderValueMax).toBe(ORDER_VALUE_MAX);
      expect(market.orderAmountMax).toBe(ORDER_AMOUNT_MAX);
    }
    // An asset of eighteen decimals gets as many whole units as one of eight.
    expect(scaledCap(ORDER_AMOUNT_MAX, 18)).toBe(ORDER_AMOUNT_MAX * 10n ** 10n);
    expect(scaledCap(ORDER_VALUE_MAX, 6)).toBe(ORDER_VALUE_MAX);
  });

  it('refuses an ask at an absurd price, and the engine stays on its fast core', async () => {
    const refused = await order('BTC_USDT', 'sell', '10000000000', '1');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ errors: { amount: ['Order value is too large'] } });
    expect(app.engineHost.engine.coreName).toBe('columnar');
    expect((await order('BTC_USDT', 'sell', '1000000', '1')).statusCode).toBe(201);
  });

  it('refuses a bid for an absurd amount at the lowest price, and the engine stays fast', async () => {
    // 100 million CNB (10^16 minor units) at 0.000001 USDT: 100 USDT.
    const refused = await order('CNB_USDT', 'buy', '0.000001', '100000000');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ errors: { amount: ['Order amount is too large'] } });
    expect(app.engineHost.engine.coreName).toBe('columnar');
    // Two bids of 50 million each are within the cap, and past 2^53 minor units together.
    for (let i = 0; i < 2; i++) {
      expect((await order('CNB_USDT', 'buy', '0.000001', '50000000')).statusCode).toBe(201);
    }
    expect(app.engineHost.engine.coreName).toBe('columnar');
  });

  it('is given again at a start to a market that lost it', async () => {
    const eth = () => app.engineHost.engine.markets().find((m) => m.name === 'ETH_USDT');
    for (const [cap, value] of [
      ['orderValueMax', ORDER_VALUE_MAX],
      ['orderAmountMax', ORDER_AMOUNT_MAX],
    ] as const) {
      await app.engineHost.submit({ type: 'market.setLimits', market: 'ETH_USDT', [cap]: 0n });
      expect(eth()?.[cap]).toBeUndefined();
      await bootstrapEngine(app.engineHost, app.db, { fundDemoUsers: false, logger: silentLogger });
      expect(eth()?.[cap]).toBe(value);
    }
  });
});
