import { amountToDecimal } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type TestUser } from '../domains/auth/testClient.js';
import { buildTradingApp, fundTrade } from '../domains/orders/tradingTestKit.js';
import { useTestDb } from '../testing/testDb.js';
import { RebuiltBook, TestSocket } from './testSocket.js';

const testDb = useTestDb();
let app: FastifyInstance;
const traders: TestUser[] = [];
const sockets: TestSocket[] = [];

const orders = 10_000;
const batchSize = 100;
const market = 'BTC_USDT';
/** Merge steps checked besides exact prices: "10" and "100" USDT. */
const merged = [
  { text: '10', step: 10_000_000n },
  { text: '100', step: 100_000_000n },
];

// A small deterministic generator, so a failure can be replayed.
let seed = 20_240_601;
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
}
const pick = (n: number) => Math.floor(random() * n);

beforeAll(async () => {
  app = await buildTradingApp(testDb.current, { rateLimitScale: 100 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  for (let i = 0; i < 4; i++) {
    const trader = await createSignedInUser(app);
    await fundTrade(app, trader.user.id, 'BTC', '100000');
    await fundTrade(app, trader.user.id, 'USDT', '10000000000');
    traders.push(trader);
  }
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await app.close();
});

/**
 * A self-trade prevention for an order body: mostly the default, sometimes one that cancels the
 * resting order, so that orders also leave the book in the middle of another one's matching.
 */
function selfTrade(): { self_trade_prevention?: string } {
  const roll = random();
  if (roll < 0.6) return {};
  return { self_trade_prevention: roll < 0.8 ? 'cancel_oldest' : 'cancel_both' };
}

/** One random request: mostly limit orders around 30,000, some market orders and cancels. */
async function randomRequest(open: Map<number, TestUser>): Promise<void> {
  const trader = traders[pick(traders.length)]!;
  const roll = random();
  if (roll < 0.15 && open.size > 0) {
    const ids = [...open.keys()];
    const id = ids[pick(ids.length)]!;
    const owner = open.get(id)!;
    open.delete(id);
    await owner.client.delete(`/api/v2/order/${id}`);
    return;
  }
  const direction = random() < 0.5 ? 'buy' : 'sell';
  const amount = `0.${String(1 + pick(999)).padStart(3, '0')}`;
  if (roll < 0.22) {
    const body = { pair: market, direction, amount, ...selfTrade() };
    await trader.client.post('/api/v2/order/put_market', body);
    return;
  }
  // Prices on the tick, spread over ±300 USDT so that merging and crossing both happen.
  const cents = 3_000_000 + (pick(60_001) - 30_000);
  const price = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
  const response = await trader.client.post('/api/v2/order', {
    pair: market,
    direction,
    price,
    amount,
    ...selfTrade(),
  });
  if (response.statusCode === 201) {
    const order = response.json().order;
    if (order.ftime === 0) open.set(order.id, trader);
  }
}

function engineBook(step: bigint) {
  const depth = app.engineHost.engine.depth(market, 100, step);
  const side = (levels: [bigint, bigint][]) =>
    levels.map(([price, amount]) => [amountToDecimal(price, 6), amountToDecimal(amount, 8)]);
  return { asks: side(depth.asks), bids: side(depth.bids) };
}

describe('depth over the socket', () => {
  it('rebuilds the engine book exactly after every batch of 10,000 random orders', async () => {
    const views = [{ text: '0', step: 0n }, ...merged];
    const watched: { socket: TestSocket; step: bigint; applied: number; book: RebuiltBook }[] = [];
    for (const view of views) {
      const socket = await TestSocket.connect(app);
      sockets.push(socket);
      await socket.ok('depth.subscribe', [market, 100, view.text]);
      watched.push({ socket, step: view.step, applied: 0, book: new RebuiltBook(100) });
    }
    const open = new Map<number, TestUser>();
    let cleanSnapshots = 0;
    for (let done = 0; done < orders; done += batchSize) {
      await Promise.all(Array.from({ length: batchSize }, () => randomRequest(open)));
      for (const entry of watched) {
        const expected = JSON.stringify(engineBook(entry.step));
        const rebuilt = () => {
          const updates = entry.socket.of('depth.update');
          for (; entry.applied < updates.length; entry.applied++) {
            const update = updates[entry.applied]!;
            if (update[0] === true) cleanSnapshots += 1;
            entry.book.apply(update);
          }
          return JSON.stringify(entry.book.view()) === expected;
        };
        await entry.socket.until(rebuilt, 3000).catch(() => {
          expect(entry.book.view(), `after ${done + batchSize} orders, step ${entry.step}`).toEqual(
            engineBook(entry.step),
          );
        });
      }
    }
    // One snapshot per subscription: everything after it was a diff.
    expect(cleanSnapshots).toBe(views.length);
    expect(engineBook(0n).asks.length).toBeGreaterThan(10);
  }, 120_000);
});
