// Every market of the reference catalogue trades on the engine's fast (columnar) core, fees in
// LTT included, with more LTT in the exchange than 2^53 minor units: a market whose sizes the
// core could not hold, or a fee it could not take, would move the whole exchange onto the
// engine's slower bigint core.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { referencePrice } from '../demoMaker/referencePrices.js';
import { buildTradingApp, fundTrade } from './tradingTestKit.js';

const testDb = useTestDb();
let app: FastifyInstance;
const SELLER = 901;
const BUYER = 902;

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
});

afterAll(async () => {
  await app.close();
});

describe('the catalogue markets', () => {
  it('trade on the fast core, the buyer paying fees in LTT from 100 million of it', async () => {
    const engine = app.engineHost.engine;
    for (const { asset } of engine.assets()) {
      for (const userId of [SELLER, BUYER]) await fundTrade(app, userId, asset, '100000000');
    }
    const decimals = new Map(engine.assets().map((a) => [a.asset, a.decimals]));
    const names = new Set(engine.markets().map((m) => m.name));
    const trade = async (paysInLtt: boolean) => {
      for (const m of engine.markets()) {
        const order = {
          type: 'order.limit',
          market: m.name,
          price: referencePrice(m, decimals.get(m.money)!),
          amount: m.minAmount * 10n,
          timeInForce: 'GTC',
          source: 'web',
        } as const;
        expect((await app.engineHost.submit({ ...order, userId: SELLER, side: 1 })).ok).toBe(true);
        const buy = await app.engineHost.submit({ ...order, userId: BUYER, side: 2 });
        if (!buy.ok) throw new Error(`${m.name}: ${buy.message}`);
        const deals = buy.events.flatMap((e) => (e.type === 'deal' ? [e] : []));
        const inLtt = paysInLtt && (m.money === 'LTT' || names.has(`LTT_${m.money}`));
        expect(
          deals.map((d) => d.takerFeeAsset),
          m.name,
        ).toEqual([inLtt ? 'LTT' : m.money]);
        expect(engine.coreName, m.name).toBe('columnar');
      }
    };
    // The first round gives every market, LTT's among them, a last price.
    await trade(false);
    await app.engineHost.submit({ type: 'user.setCustomFee', userId: BUYER, enabled: true });
    await trade(true);
  });
});
