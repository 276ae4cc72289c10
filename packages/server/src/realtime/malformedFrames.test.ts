import { socketCloseCodes, socketErrors } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type TestUser } from '../domains/auth/testClient.js';
import { buildTradingApp, fundTrade, placeLimit } from '../domains/orders/tradingTestKit.js';
import { testConfig } from '../testing/testConfig.js';
import { useTestDb } from '../testing/testDb.js';
import { TestSocket } from './testSocket.js';

const testDb = useTestDb();
let app: FastifyInstance;
let trader: TestUser;
const sockets: TestSocket[] = [];

async function open(): Promise<TestSocket> {
  const socket = await TestSocket.connect(app);
  sockets.push(socket);
  return socket;
}

async function signedIn(): Promise<TestSocket> {
  const params = (await trader.client.get('/api/systemParams')).json();
  const socket = await open();
  await socket.ok('server.auth', [params.wsToken, 'web']);
  return socket;
}

beforeAll(async () => {
  // Limits raised: this file checks what bad params do, not how many requests are allowed.
  const realtime = {
    ...testConfig().realtime,
    messagesPerSecondMax: 1_000_000,
    subscriptionsMax: 100_000,
  };
  app = await buildTradingApp(testDb.current, { realtime });
  await app.listen({ port: 0, host: '127.0.0.1' });
  trader = await createSignedInUser(app);
  await fundTrade(app, trader.user.id, 'USDT', '1000');
  await placeLimit(trader.client, 'BTC_USDT', 'buy', '20000', '0.01');
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await app.close();
});

/** Every method of protocol-ws.md. */
const methods = [
  'server.ping',
  'server.time',
  'server.auth',
  'depth.query',
  'depth.subscribe',
  'depth.unsubscribe',
  'deals.query',
  'deals.subscribe',
  'deals.unsubscribe',
  'kline.query',
  'kline.subscribe',
  'kline.unsubscribe',
  'price.query',
  'price.subscribe',
  'price.unsubscribe',
  'state.query',
  'state.subscribe',
  'state.unsubscribe',
  'today.query',
  'today.subscribe',
  'today.unsubscribe',
  'order.query',
  'order.history',
  'order.subscribe',
  'order.unsubscribe',
  'asset.history',
];

const fortyDigits = '1234567890'.repeat(4);
/** Params of the wrong kind, or of the right kind and absurd. */
const hostileParams: unknown[][] = [
  [],
  [null],
  [null, null, null, null, null],
  [true],
  [-1],
  [1e308],
  [Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER],
  [1.5, 0.1],
  [''],
  ['x'.repeat(10_000)],
  ['BTC_USDT', -1, 'NaN'],
  ['BTC_USDT', 1e308, '1e5'],
  ['BTC_USDT', '100', '0'],
  ['BTC_USDT', 0, 0, 0],
  ['BTC_USDT', -1, -1, -1],
  ['BTC_USDT', fortyDigits, fortyDigits, fortyDigits],
  ['BTC_USDT', 'NaN', 'Infinity', '-Infinity'],
  ['btc_usdt', 100, fortyDigits],
  ['ünïcødé ✓ 𝄞', '\u0000'],
  ['../../etc/passwd'],
  ['__proto__', 'constructor'],
  [{}],
  [{ market: 'BTC_USDT' }],
  [[]],
  [['BTC_USDT', 'ETH_USDT']],
  [JSON.parse('{"__proto__":{"polluted":true}}')],
  [nested(500)],
  Array.from({ length: 500 }, () => 'BTC_USDT'),
];

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

/** The reply, or null when the server closed the connection instead. */
async function callOrClose(socket: TestSocket, method: string, params: unknown[]) {
  const closed = socket.until(() => socket.closeCode !== null, 5_000).then(() => null);
  return Promise.race([socket.call(method, params), closed]);
}

describe('malformed socket requests', () => {
  it('get an error reply, never an internal error, and the connection keeps serving', async () => {
    const socket = await signedIn();
    const faults: string[] = [];
    for (const method of methods) {
      for (const params of hostileParams) {
        const label = `${method} ${JSON.stringify(params).slice(0, 60)}`;
        const reply = await callOrClose(socket, method, params);
        if (reply === null) {
          faults.push(`${label}: connection closed (${socket.closeCode})`);
          break;
        }
        if (reply.error?.code === socketErrors.internalError.code) {
          faults.push(`${label}: internal error`);
        }
      }
      if (socket.closeCode !== null) break;
    }
    expect(faults).toEqual([]);
    expect(await socket.ok('server.ping')).toBe('pong');
    // The trader's open order is still there: nothing sent above touched it.
    expect(await socket.ok('order.query', ['BTC_USDT', 0, 10])).toMatchObject({ total: 1 });
  }, 60_000);

  it('answer method not found for names that are not methods, prototype names included', async () => {
    const socket = await signedIn();
    for (const name of [
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'valueOf',
      '',
      'server',
      'server.ping ',
      'SERVER.PING',
      'x'.repeat(64),
    ]) {
      expect((await socket.call(name, [])).error, name).toEqual(socketErrors.methodNotFound);
    }
    expect(await socket.ok('server.ping')).toBe('pong');
  });

  it('closes a connection whose frame is not a request, and keeps serving the others', async () => {
    const good = await signedIn();
    const frames: (string | Buffer)[] = [
      '',
      '[]',
      '[{"id":1,"method":"server.ping","params":[]}]',
      'null',
      '42',
      '"server.ping"',
      '{}',
      '{"id":1,"method":"server.ping"}',
      '{"id":1,"method":"server.ping","params":{}}',
      '{"id":1,"method":"server.ping","params":"x"}',
      '{"id":1.5,"method":"server.ping","params":[]}',
      '{"id":-1e300,"method":"server.ping","params":[]}',
      `{"id":${fortyDigits},"method":"server.ping","params":[]}`,
      '{"id":1,"method":42,"params":[]}',
      `{"id":1,"method":"${'m'.repeat(65)}","params":[]}`,
      '{"id":1,"method":"server.ping","params":[]',
      `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
    ];
    for (const frame of frames) {
      const bad = await open();
      bad.socket.send(frame);
      await bad
        .until(() => bad.closeCode !== null)
        .catch(() => {
          throw new Error(`not closed after ${String(frame).slice(0, 60)}`);
        });
      expect(bad.closeCode, String(frame).slice(0, 60)).toBe(socketCloseCodes.unsupportedData);
    }
    const binary = await open();
    binary.socket.send(Buffer.from('{"id":1,"method":"server.ping","params":[]}'), {
      binary: true,
    });
    await binary.until(() => binary.closeCode !== null);
    expect(binary.closeCode).toBe(socketCloseCodes.unsupportedData);
    // Bytes that are not UTF-8 in a text frame: the socket library closes with 1007.
    const notUtf8 = await open();
    notUtf8.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    await notUtf8.until(() => notUtf8.closeCode !== null);
    expect(notUtf8.closeCode).toBe(1007);
    expect(await good.ok('server.ping')).toBe('pong');
    expect(await (await open()).ok('server.time')).toEqual(expect.any(Number));
  }, 30_000);

  it('answers a request whose params are nested deep, without harm to the server', async () => {
    const socket = await open();
    const deep = `{"id":7,"method":"depth.query","params":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const reply = new Promise<unknown>((resolve) =>
      socket.socket.once('message', (data) => resolve(JSON.parse(data.toString()))),
    );
    socket.socket.send(deep);
    expect(await reply).toMatchObject({
      id: 7,
      error: { code: socketErrors.invalidArgument.code },
    });
    expect(await socket.ok('server.ping')).toBe('pong');
  }, 30_000);
});
