import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from '../../testing/testDb.js';
import { buildAccountsApp, testClock } from '../auth/authTestApp.js';
import { createSignedInUser, TestClient } from '../auth/testClient.js';
import { updateUser } from '../auth/users.repo.js';

const testDb = useTestDb();
const clock = testClock();
const received: { from: string; to: string[]; raw: string }[] = [];
let smtp: SMTPServer;
let app: FastifyInstance;

beforeAll(async () => {
  // A real SMTP server on the loopback: the mail crosses a socket as it would in production.
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  app = await buildAccountsApp(testDb.current, {
    clock,
    config: { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'Lattice <no-reply@lattice.test>' },
  });
});
afterAll(async () => {
  await app.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('SMTP delivery', () => {
  it('delivers the new-device code with the anti-phishing code, and the code signs in', async () => {
    const { user, email, password } = await createSignedInUser(app);
    await updateUser(
      testDb.current.db,
      user.id,
      { anti_phishing_code: 'Blue_whale', anti_phishing_enabled: 1 },
      clock.now(),
    );
    const browser = new TestClient(app);
    await browser.bootstrap();
    const login = await browser.post('/api/v2/login', { email, password });
    expect(login.json()).toEqual({ status: 'device_confirmation' });
    await app.accounts.mailer.flush();

    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail?.from).toBe('no-reply@lattice.test');
    expect(mail?.to).toEqual([email]);
    const code = /^Subject: Your sign-in code: (\d{6})$/m.exec(mail?.raw ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(mail?.raw).toContain('Your anti-phishing code: Blue_whale');
    expect(mail?.raw).toContain(code);

    const sent = await testDb.current.db
      .selectFrom('mail_outbox')
      .select(['sent_at', 'attempts'])
      .where('to_address', '=', email)
      .executeTakeFirstOrThrow();
    expect(sent).toEqual({ sent_at: clock.now(), attempts: 1 });

    const confirmed = await browser.post('/api/v2/login', { email, password, device_code: code });
    expect(confirmed.json()).toMatchObject({ status: 'ok', user: { email } });
  });
});
