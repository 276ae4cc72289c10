import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { buildApp } from '../../app.js';
import type { Config } from '../../config.js';
import { testConfig } from '../../testing/testConfig.js';
import type { TestDb } from '../../testing/testDb.js';
import { mailsTo } from '../mail/outbox.repo.js';
import { accountsPluginWith } from './accounts.plugin.js';

/** A clock tests move by hand (TOTP steps, expiry, rate-limit windows). */
export interface TestClock {
  now: () => number;
  advance(ms: number): void;
}

export function testClock(start = Date.UTC(2026, 0, 5, 12, 0, 0)): TestClock {
  let current = start;
  return {
    now: () => current,
    advance(ms) {
      current += ms;
    },
  };
}

/** The app with the accounts plugin on a test clock, plus any further plugins. */
export async function buildAccountsApp(
  testDb: TestDb,
  options: { clock?: TestClock; config?: Partial<Config>; plugins?: FastifyPluginAsync[] } = {},
): Promise<FastifyInstance> {
  const clock = options.clock ?? testClock();
  return buildApp(testConfig(options.config), {
    db: testDb.db,
    dialect: testDb.dialect,
    plugins: [accountsPluginWith({ now: clock.now }), ...(options.plugins ?? [])],
  });
}

/** The newest mail to `to` from the outbox. */
export async function lastMailTo(app: FastifyInstance, to: string) {
  const [mail] = await mailsTo(app.accounts.db, to, 1);
  if (mail === undefined) throw new Error(`no mail to ${to}`);
  return mail;
}

/** The 6-digit code in the newest mail to `to`. */
export async function lastCodeTo(app: FastifyInstance, to: string): Promise<string> {
  const mail = await lastMailTo(app, to);
  const code = /\b(\d{6})\b/.exec(mail.text_body)?.[1];
  if (code === undefined) throw new Error(`no code in the mail "${mail.subject}"`);
  return code;
}
