import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteEntry, routeCatalogue } from '../packages/web/src/app/routeCatalogue.js';
import { openSession, type Session } from './support/browser.js';
import { screenHeading, signIn } from './support/flows.js';

/** A concrete address for a route pattern. */
function samplePath(entry: RouteEntry, prefix: string): string {
  const path = `/${entry.path}`
    .replace(':pair', 'BTC_USDT')
    .replace(':ticker', 'BTC')
    .replace(':slug', 'lattice')
    .replace(/:(id|ticketId)/, '1');
  return `${prefix}${path}`.replace(/(.)\/$/, '$1');
}

const demo = { email: 'alice@example.com', password: 'Alice-demo-1' };
const prefixes = ['', '/ru'];

async function visitAll(session: Session, entries: readonly RouteEntry[]) {
  const failures: string[] = [];
  for (const prefix of prefixes) {
    for (const entry of entries) {
      const path = samplePath(entry, prefix);
      session.errors.length = 0;
      await session.page.goto(path);
      const heading = await screenHeading(session.page);
      const landed = new URL(session.page.url()).pathname;
      if (heading.trim() === '') failures.push(`${path}: empty heading`);
      if (prefix && !landed.startsWith(prefix))
        failures.push(`${path}: left ${prefix} for ${landed}`);
      if (heading.includes('failed to load')) failures.push(`${path}: ${heading}`);
      for (const error of session.errors) failures.push(`${path}: ${error}`);
    }
  }
  return failures;
}

describe('every route of the spec', () => {
  let visitor: Session;
  let trader: Session;

  beforeAll(async () => {
    visitor = await openSession();
    trader = await openSession();
    await signIn(trader.page, demo);
  });

  afterAll(async () => {
    await visitor.close();
    await trader.close();
  });

  it('renders the public and sign-in screens for a visitor, in English and Russian', async () => {
    const entries = routeCatalogue.filter((entry) => entry.access !== 'user');
    expect(await visitAll(visitor, entries)).toEqual([]);
  });

  it('renders the signed-in screens for a trader, in English and Russian', async () => {
    const entries = routeCatalogue.filter((entry) => entry.access === 'user');
    expect(await visitAll(trader, entries)).toEqual([]);
  });
});
