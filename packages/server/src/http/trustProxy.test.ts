import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import { buildAccountsApp } from '../domains/auth/authTestApp.js';
import { useTestDb } from '../testing/testDb.js';

const testDb = useTestDb();
let app: FastifyInstance | null = null;

afterEach(async () => {
  await app?.close();
  app = null;
});

/** The address the server takes for a request from `remoteAddress` naming `forwarded`. */
async function clientAddress(config: Partial<Config>, remoteAddress: string, forwarded: string) {
  app = await buildAccountsApp(testDb.current, {
    config,
    plugins: [
      async (instance) => {
        instance.get('/api/test/ip', async (request) => ({ ip: request.ip }));
      },
    ],
  });
  const response = await app.inject({
    url: '/api/test/ip',
    remoteAddress,
    headers: { 'x-forwarded-for': forwarded },
  });
  return (response.json() as { ip: string }).ip;
}

describe('TRUST_PROXY', () => {
  it('ignores X-Forwarded-For by default: a client cannot pick its own address', async () => {
    expect(await clientAddress({}, '198.51.100.4', '203.0.113.7')).toBe('198.51.100.4');
  });

  it('takes the client address from a trusted proxy, and only from it', async () => {
    const trusted = { trustProxy: '10.0.0.0/8' };
    expect(await clientAddress(trusted, '10.1.2.3', '203.0.113.7')).toBe('203.0.113.7');
    await app?.close();
    expect(await clientAddress(trusted, '198.51.100.4', '203.0.113.7')).toBe('198.51.100.4');
  });

  it('with a hop count, trusts that many proxies from the connection back', async () => {
    // One hop: the connection is the proxy; the address it saw last is the client's, and an
    // address the client wrote itself further left is ignored.
    expect(await clientAddress({ trustProxy: 1 }, '10.1.2.3', '192.0.2.1, 203.0.113.7')).toBe(
      '203.0.113.7',
    );
  });
});
