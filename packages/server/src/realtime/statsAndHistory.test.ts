import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type TestUser } from '../domains/auth/testClient.js';
import { buildTradingApp, fundTrade, placeLimit } from '../domains/orders/tradingTestKit.js';
import { useTestDb } from '../testing/testDb.js';
import { TestSocket } from './testSocket.js';

const testDb = useTestDb();
let app: FastifyInstance;
let seller: TestUser;
let buyer: TestUser;
const sockets: TestSocket[] = [];

async function open(): Promise<TestSocket> {
  const socket = await TestSocket.connect(app);
  sockets.push(socket);
  return socket;
}

async function signedIn(user: TestUser): Promise<TestSocket> {
  const params = (await user.client.get('/api/systemParams')).json();
  const socket = await open();
  await socket.ok('server.auth', [params.wsToken, 'web']);
  return socket;
}

interface HistoryRecord {
  time: number;
  asset: string;
  business: string;
  change: string;
  balance: string;
  detail: Record<string, unknown>;
}

async function history(socket: TestSocket, params: unknown[]): Promise<HistoryRecord[]> {
  const page = (await socket.ok('asset.history', params)) as { records: HistoryRecord[] };
  return page.records;
}

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
  await app.listen({ port: 0, host: '127.0.0.1' });
  seller = await createSignedInUser(app);
  buyer = await createSignedInUser(app);
  await fundTrade(app, seller.user.id, 'BTC', '1');
  await fundTrade(app, buyer.user.id, 'USDT', '100000');
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await app.close();
});

describe('asset.history', () => {
  it("lists the trade account's balance changes, newest first, without freezes", async () => {
    const socket = await signedIn(seller);
    const funded = await history(socket, ['', '', 0, 0, 0, 10]);
    expect(funded).toEqual([
      expect.objectContaining({ asset: 'BTC', business: 'transfer', change: '1', balance: '1' }),
    ]);
    expect(Math.abs(funded[0]!.time - Date.now() / 1000)).toBeLessThan(60);

    // Resting freezes 0.25 BTC (not a change of the balance); the buy then takes 0.1 of it.
    await placeLimit(seller.client, 'BTC_USDT', 'sell', '30000', '0.25');
    await placeLimit(buyer.client, 'BTC_USDT', 'buy', '30000', '0.1');
    const records = await history(socket, ['', '', 0, 0, 0, 10]);
    expect(records.map((record) => [record.asset, record.business, record.change])).toEqual([
      ['USDT', 'trade', expect.stringMatching(/^299\d/)],
      ['BTC', 'trade', '-0.1'],
      ['BTC', 'transfer', '1'],
    ]);
    const sold = records[1]!;
    expect(sold.balance).toBe('0.9');
    expect(sold.detail).toEqual({ order_id: expect.any(Number), deal_id: expect.any(Number) });
    expect(records.every((record) => record.change !== '0')).toBe(true);
  });

  it('filters by asset, business and time, pages, and shows only the signed-in user', async () => {
    const socket = await signedIn(seller);
    expect(await history(socket, ['BTC', '', 0, 0, 0, 10])).toHaveLength(2);
    expect(await history(socket, ['', 'transfer', 0, 0, 0, 10])).toEqual([
      expect.objectContaining({ asset: 'BTC', change: '1' }),
    ]);
    expect(await history(socket, ['', '', 0, 1, 0, 10])).toEqual([]);
    const later = Math.floor(Date.now() / 1000) + 3600;
    expect(await history(socket, ['', '', later, 0, 0, 10])).toEqual([]);
    const all = await history(socket, ['', '', 0, 0, 0, 10]);
    expect(await history(socket, ['', '', 0, 0, 1, 1])).toEqual([all[1]]);
    const theirs = await history(await signedIn(buyer), ['', '', 0, 0, 0, 101]);
    expect(theirs.map((record) => record.asset).sort()).toEqual(['BTC', 'USDT', 'USDT']);
  });

  it('refuses bad parameters with error 1, and answers 6 before auth', async () => {
    const socket = await signedIn(seller);
    for (const params of [
      ['', '', 0, 0, 0],
      ['', '', 0, 0, 0, 102],
      ['', '', 0, 0, -1, 10],
      ['NOPE', '', 0, 0, 0, 10],
      ['', 7, 0, 0, 0, 10],
    ]) {
      expect((await socket.call('asset.history', params)).error?.code).toBe(1);
    }
    const anonymous = await open();
    expect((await anonymous.call('asset.history', ['', '', 0, 0, 0, 10])).error?.code).toBe(6);
  });
});

describe('state', () => {
  it('answers the statistics of a period, the 24 h ones as today.query', async () => {
    const socket = await open();
    const day = (await socket.ok('state.query', ['BTC_USDT', 86_400])) as Record<string, string>;
    const today = (await socket.ok('today.query', ['BTC_USDT'])) as Record<string, string>;
    expect(day).toEqual({ period: 86_400, ...today, close: today.last });
    expect(Object.keys(day)).toEqual([
      'period',
      'last',
      'open',
      'close',
      'high',
      'low',
      'volume',
      'deal',
    ]);
    // The trade above is within the current minute or the one before.
    const recent = await socket.ok('state.query', ['BTC_USDT', 120]);
    expect(recent).toMatchObject({ period: 120, last: '30000', high: '30000', volume: '0.1' });
    const almostDay = await socket.ok('state.query', ['BTC_USDT', 86_399]);
    expect(almostDay).toEqual({ ...day, period: 86_399 });
    const untraded = await socket.ok('state.query', ['ETH_USDT', 60]);
    expect(untraded).toMatchObject({ period: 60, volume: '0', deal: '0' });
    for (const params of [['BTC_USDT', 0], ['BTC_USDT', 86_401], ['NOPE', 60], ['BTC_USDT']]) {
      expect((await socket.call('state.query', params)).error?.code).toBe(1);
    }
  });

  it('pushes the 24 h statistics after a subscribe and when they change, until unsubscribed', async () => {
    const socket = await open();
    expect(await socket.ok('state.subscribe', ['BTC_USDT'])).toEqual({ status: 'success' });
    // At least one: a periodic refresh may follow the subscribe's own push in the same TCP
    // read, so the count can go from 0 to 2 before this wait first looks.
    await socket.until(() => socket.of('state.update').length >= 1);
    expect(socket.of('state.update')[0]).toEqual([
      'BTC_USDT',
      expect.objectContaining({ period: 86_400, last: '30000', close: '30000' }),
    ]);
    // Other pushes of the unchanged figures may come first (a busy machine can put the
    // subscribe's own push and a refresh apart): wait for the one that carries the trade.
    const volumeOf = (update: unknown[]) => (update[1] as { volume?: string }).volume;
    await placeLimit(buyer.client, 'BTC_USDT', 'buy', '30000', '0.05');
    await socket.until(() => socket.of('state.update').some((u) => volumeOf(u) === '0.15'));
    expect(await socket.ok('state.unsubscribe')).toEqual({ status: 'success' });
    const pushed = socket.of('state.update').length;
    await placeLimit(buyer.client, 'BTC_USDT', 'buy', '30000', '0.05');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(socket.of('state.update')).toHaveLength(pushed);
    expect(socket.of('state.update').some((u) => volumeOf(u) === '0.2')).toBe(false);
  });
});
