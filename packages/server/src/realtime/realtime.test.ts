import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type TestUser } from '../domains/auth/testClient.js';
import { buildTradingApp, fundTrade, placeLimit } from '../domains/orders/tradingTestKit.js';
import { useTestDb } from '../testing/testDb.js';
import { RebuiltBook, TestSocket } from './testSocket.js';

const testDb = useTestDb();
let app: FastifyInstance;
let alice: TestUser;
let bob: TestUser;
const sockets: TestSocket[] = [];

async function open(): Promise<TestSocket> {
  const socket = await TestSocket.connect(app);
  sockets.push(socket);
  return socket;
}

async function signedIn(user: TestUser): Promise<TestSocket> {
  const params = (await user.client.get('/api/systemParams')).json();
  const socket = await open();
  expect(await socket.ok('server.auth', [params.wsToken, 'web'])).toEqual({ status: 'success' });
  return socket;
}

beforeAll(async () => {
  app = await buildTradingApp(testDb.current);
  await app.listen({ port: 0, host: '127.0.0.1' });
  alice = await createSignedInUser(app);
  bob = await createSignedInUser(app);
  for (const user of [alice, bob]) {
    await fundTrade(app, user.user.id, 'BTC', '10');
    await fundTrade(app, user.user.id, 'USDT', '1000000');
  }
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await app.close();
});

describe('session methods', () => {
  it('answers ping and time, error 4 for an unknown method, 6 before auth, 11 for a bad token', async () => {
    const socket = await open();
    expect(await socket.ok('server.ping')).toBe('pong');
    const time = (await socket.ok('server.time')) as number;
    expect(Math.abs(time - Date.now() / 1000)).toBeLessThan(5);
    expect((await socket.call('nope.method')).error).toEqual({
      code: 4,
      message: 'method not found',
    });
    expect((await socket.call('order.query', ['BTC_USDT'])).error?.code).toBe(6);
    expect((await socket.call('asset.query', [])).error?.code).toBe(6);
    expect((await socket.call('server.auth', ['forged.token', 'web'])).error?.code).toBe(11);
    expect((await socket.call('server.auth', [42])).error?.code).toBe(1);
  });

  it('closes a connection that sends a malformed frame and keeps serving the others', async () => {
    const bad = await open();
    const good = await open();
    bad.socket.send('{"id": "one", "method": "server.ping", "params": []}');
    await bad.until(() => bad.closeCode !== null);
    expect(bad.closeCode).toBe(1003);
    const notJson = await open();
    notJson.socket.send('not json at all');
    await notJson.until(() => notJson.closeCode !== null);
    expect(notJson.closeCode).toBe(1003);
    expect(await good.ok('server.ping')).toBe('pong');
  });

  it('closes a connection whose frame is over the size limit', async () => {
    const socket = await open();
    socket.socket.send(
      JSON.stringify({ id: 1, method: 'server.ping', params: ['x'.repeat(200_000)] }),
    );
    await socket.until(() => socket.closeCode !== null);
    expect(socket.closeCode).toBe(1009);
  });
});

describe('depth', () => {
  it('sends a snapshot after subscribe, then diffs that rebuild the book', async () => {
    const socket = await open();
    await placeLimit(alice.client, 'BTC_USDT', 'sell', '30100', '0.5');
    expect(await socket.ok('depth.subscribe', ['BTC_USDT', 100, '0'])).toEqual({
      status: 'success',
    });
    await socket.until(() => socket.of('depth.update').length >= 1);
    const [clean, data, market] = socket.of('depth.update')[0]!;
    expect([clean, market]).toEqual([true, 'BTC_USDT']);
    expect(data).toEqual({ asks: [['30100', '0.5']], bids: [] });
    const book = new RebuiltBook(100);
    book.apply(socket.of('depth.update')[0]!);
    await placeLimit(bob.client, 'BTC_USDT', 'buy', '30000', '1');
    await placeLimit(bob.client, 'BTC_USDT', 'buy', '30100', '0.2');
    const started = Date.now();
    await socket.until(() => {
      const updates = socket.of('depth.update');
      const copy = new RebuiltBook(100);
      for (const update of updates) copy.apply(update);
      return JSON.stringify(copy.view().asks) === JSON.stringify([['30100', '0.3']]);
    });
    expect(Date.now() - started).toBeLessThan(1000);
    for (const update of socket.of('depth.update').slice(1)) book.apply(update);
    const http = (await app.inject({ url: '/api/v2/depth/BTC_USDT?limit=100' })).json();
    expect(book.view()).toEqual(http);
    expect(
      socket
        .of('depth.update')
        .slice(1)
        .every((u) => u[0] === false),
    ).toBe(true);
  });

  it('merges levels by the interval: asks rounded up, bids down', async () => {
    const socket = await open();
    await placeLimit(alice.client, 'BTC_USDT', 'sell', '30100.45', '0.1');
    await placeLimit(bob.client, 'BTC_USDT', 'buy', '29999.99', '0.1');
    await socket.ok('depth.subscribe', ['BTC_USDT', 5, '10']);
    await socket.until(() => socket.of('depth.update').length >= 1);
    expect(socket.of('depth.update')[0]![1]).toEqual({
      asks: [
        ['30100', '0.3'],
        ['30110', '0.1'],
      ],
      bids: [
        ['30000', '1'],
        ['29990', '0.1'],
      ],
    });
    expect(await socket.ok('depth.query', ['BTC_USDT', 2, '100'])).toEqual({
      asks: [
        ['30100', '0.3'],
        ['30200', '0.1'],
      ],
      bids: [
        ['30000', '1'],
        ['29900', '0.1'],
      ],
    });
  });

  it('refuses an unknown market, limit or interval with error 1', async () => {
    const socket = await open();
    for (const params of [
      ['NOPE_USDT', 100, '0'],
      ['BTC_USDT', 7, '0'],
      ['BTC_USDT', 100, '0.001'],
      ['BTC_USDT', 100, 'abc'],
      ['BTC_USDT'],
    ]) {
      const reply = await socket.call('depth.subscribe', params);
      expect(reply.error?.code, JSON.stringify(params)).toBe(1);
    }
    expect(await socket.ok('depth.unsubscribe')).toEqual({ status: 'success' });
  });
});

describe('deals, kline, today and price', () => {
  it('pushes new trades and the figures derived from them', async () => {
    const socket = await open();
    await socket.ok('deals.subscribe', ['BTC_USDT']);
    await socket.ok('today.subscribe', ['BTC_USDT']);
    await socket.ok('price.subscribe', ['BTC_USDT']);
    await socket.ok('kline.subscribe', ['BTC_USDT', 60]);
    await socket.until(() => socket.of('deals.update').length >= 1);
    const backlog = socket.of('deals.update')[0]!;
    expect(backlog[0]).toBe('BTC_USDT');
    expect((backlog[1] as { price: string }[])[0]).toMatchObject({ price: '30100', type: 'buy' });
    await placeLimit(alice.client, 'BTC_USDT', 'sell', '30000', '0.25');
    await socket.until(() => socket.of('deals.update').length === 2);
    expect(socket.of('deals.update')[1]).toEqual([
      'BTC_USDT',
      [expect.objectContaining({ price: '30000', amount: '0.25', type: 'sell' })],
    ]);
    await socket.until(() => socket.of('kline.update').length > 0);
    // The current candle is the last row: when a new minute began after the subscribe, the
    // previous candle (closed at the backlog's 30100) comes first in the same push.
    const row = socket.of('kline.update').at(-1)!.at(-1) as unknown[];
    expect(row[2]).toBe('30000');
    expect(row[7]).toBe('BTC_USDT');
    await socket.until(() => socket.of('price.update').some((params) => params[1] === '30000'));
    await socket.until(() =>
      socket.of('today.update').some((params) => (params[1] as { last: string }).last === '30000'),
    );
    expect(await socket.ok('price.query', ['BTC_USDT'])).toBe('30000');
    expect(await socket.ok('today.query', ['BTC_USDT'])).toMatchObject({
      last: '30000',
      high: '30100',
    });
    const deals = (await socket.ok('deals.query', ['BTC_USDT', 1, 0])) as { id: number }[];
    expect(deals).toHaveLength(1);
    const now = Math.floor(Date.now() / 1000);
    const rows = (await socket.ok('kline.query', ['BTC_USDT', now - 600, now, 60])) as unknown[][];
    expect(rows.at(-1)?.[2]).toBe('30000');
    expect((await socket.call('kline.query', ['BTC_USDT', 0, now, 61])).error?.code).toBe(1);
  });
});

describe('private channels', () => {
  it('pushes order events and balances of the signed-in user only', async () => {
    const mine = await signedIn(alice);
    const theirs = await signedIn(bob);
    await mine.ok('order.subscribe', ['BTC_USDT']);
    await mine.ok('asset.subscribe', ['BTC', 'USDT']);
    await theirs.ok('order.subscribe', ['ETH_USDT']);
    const order = await placeLimit(alice.client, 'BTC_USDT', 'sell', '35000', '0.1');
    await mine.until(() => mine.of('order.update').length >= 1);
    expect(mine.of('order.update')[0]).toEqual([
      1,
      expect.objectContaining({ id: order.id, left: '0.1' }),
    ]);
    await mine.until(() => mine.of('asset.update').length > 0);
    const balance = (mine.of('asset.update').at(-1)![0] as Record<string, unknown>).BTC;
    expect(balance).toEqual({ available: expect.any(String), freeze: expect.any(String) });
    await alice.client.delete(`/api/v2/order/${order.id}`);
    await mine.until(() => mine.of('order.update').length === 2);
    expect(mine.of('order.update')[1]).toEqual([3, expect.objectContaining({ finish_reason: 1 })]);
    expect(theirs.of('order.update')).toEqual([]);
    const query = (await mine.ok('order.query', ['BTC_USDT'])) as { limit: number };
    expect(query).toMatchObject({ offset: 0, limit: 100 });
    const history = (await mine.ok('order.history', ['BTC_USDT', 0, 0, 0, 10])) as {
      records: { id: number }[];
    };
    expect(history.records[0]?.id).toBe(order.id);
    const assets = (await mine.ok('asset.query', ['BTC'])) as Record<string, { freeze: string }>;
    expect(Object.keys(assets)).toEqual(['BTC']);
    const margin = (await mine.ok('asset_margin.query', ['USDT'])) as Record<string, unknown>;
    expect(margin.USDT).toEqual({ available: '0', freeze: '0', borrow: '0', interest: '0' });
    expect((await mine.call('asset.query', ['NOPE'])).error?.code).toBe(1);
  });

  it('reports a stop-limit as put, then triggered (4), on the same order id', async () => {
    const mine = await signedIn(alice);
    await mine.ok('order.subscribe', ['BTC_USDT']);
    const placed = await alice.client.post('/api/v2/stop-limit-order', {
      pair: 'BTC_USDT',
      direction: 'buy',
      stop_price: '30050',
      price: '30200',
      amount: '0.01',
    });
    const { order } = placed.json();
    expect(order.triggered).toBe(false);
    // Bob buys from Alice's ask at 30100: the last price passes the stop.
    await placeLimit(bob.client, 'BTC_USDT', 'buy', '30100', '0.01');
    await mine.until(() => mine.of('order.update').some((params) => params[0] === 4));
    const events = mine
      .of('order.update')
      .filter((params) => (params[1] as { id: number }).id === order.id)
      .map((params) => params[0]);
    expect(events.slice(0, 2)).toEqual([1, 4]);
    expect(events.at(-1)).toBe(3);
  });
});

describe('unsubscribing', () => {
  it('stops every channel, public and private', async () => {
    const socket = await signedIn(bob);
    for (const [channel, params] of [
      ['deals', ['BTC_USDT']],
      ['kline', ['BTC_USDT', 60]],
      ['today', ['BTC_USDT']],
      ['price', ['BTC_USDT']],
      ['order', ['BTC_USDT']],
      ['asset', []],
      ['asset_margin', ['USDT']],
    ] as const) {
      expect(await socket.ok(`${channel}.subscribe`, [...params])).toEqual({ status: 'success' });
      expect(await socket.ok(`${channel}.unsubscribe`)).toEqual({ status: 'success' });
    }
    await socket.ok('depth.subscribe', ['BTC_USDT', 10]);
    await socket.ok('depth.unsubscribe');
    const seen = socket.pushes.length;
    await placeLimit(alice.client, 'BTC_USDT', 'sell', '29000', '0.01');
    await placeLimit(bob.client, 'BTC_USDT', 'buy', '29000', '0.01');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = socket.pushes.slice(seen).map((push) => push.method);
    expect(after).toEqual([]);
    expect((await socket.call('asset.unsubscribe', ['BTC'])).error?.code).toBe(1);
  });
});
