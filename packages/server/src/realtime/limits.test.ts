import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTradingApp } from '../domains/orders/tradingTestKit.js';
import { testConfig } from '../testing/testConfig.js';
import { useTestDb } from '../testing/testDb.js';
import { TestSocket } from './testSocket.js';

const testDb = useTestDb();
let app: FastifyInstance;
const sockets: TestSocket[] = [];

async function open(): Promise<TestSocket> {
  const socket = await TestSocket.connect(app);
  sockets.push(socket);
  return socket;
}

beforeAll(async () => {
  const realtime = {
    ...testConfig().realtime,
    messagesPerSecondMax: 20,
    subscriptionsMax: 3,
    connectionsPerIpMax: 4,
  };
  app = await buildTradingApp(testDb.current, { realtime });
  await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await app.close();
});

describe('socket limits', () => {
  it('refuses a subscription past the limit per connection', async () => {
    const socket = await open();
    await socket.ok('deals.subscribe', ['BTC_USDT', 'ETH_USDT']);
    await socket.ok('price.subscribe', ['BTC_USDT']);
    const reply = await socket.call('today.subscribe', ['BTC_USDT']);
    expect(reply.error).toEqual({ code: 1, message: 'too many subscriptions' });
    // Replacing a channel's subscription frees what it held.
    await socket.ok('deals.subscribe', ['BTC_USDT']);
    expect(await socket.ok('today.subscribe', ['BTC_USDT'])).toEqual({ status: 'success' });
  });

  it('closes a connection that sends too many requests per second', async () => {
    const socket = await open();
    for (let i = 0; i < 40; i++) {
      socket.socket.send(JSON.stringify({ id: i + 1, method: 'server.ping', params: [] }));
    }
    await socket.until(() => socket.closeCode !== null);
    expect(socket.closeCode).toBe(1008);
  });

  it('refuses more connections per address than allowed, before the upgrade', async () => {
    while (app.realtime.connectionCount < 4) await open();
    await expect(TestSocket.connect(app)).rejects.toThrow(/429/);
    const still = sockets[0]!;
    expect(await still.ok('server.ping')).toBe('pong');
  });
});
