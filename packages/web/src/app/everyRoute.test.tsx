import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildBalance } from '../features/wallet/walletFakes';
import { buildGeneralSettings, buildSecuritySettings, buildUser } from '../test/fakeApi';
import { renderApp } from '../test/renderApp';
import { routeCatalogue } from './routeCatalogue';

/** A concrete address for a route pattern: a listed pair, a ticker, an id. */
function samplePath(pattern: string): string {
  return `/${pattern}`
    .replace(':pair', 'BTC_USDT')
    .replace(':ticker', 'BTC')
    .replace(':slug', 'lattice')
    .replace(/:(id|ticketId)/, '1');
}

// Screens whose rules send the visitor elsewhere before they render.
const redirecting = new Set(['auth']);
// Screens that need more than the page globals to show their own heading.
const loadingFirst = new Set(['verify', 'reset-password', 'device-confirmation', 'not-found']);

const entries = routeCatalogue.filter((entry) => !redirecting.has(entry.path));

describe.each(['', '/ru'])('every route under "%s"', (prefix) => {
  it.each(entries.map((entry) => [entry.path || '/', entry] as const))(
    '%s renders its screen',
    async (_path, entry) => {
      const user = entry.access === 'user' || entry.rule === 'userExchange' ? buildUser() : null;
      const path = `${prefix}${samplePath(entry.path)}`.replace(/\/$/, '') || '/';
      const { location } = await renderApp(path, {
        params: { user },
        routes: {
          'GET /api/v2/password/validate': { body: { status: 'ok' } },
          'POST /api/v2/register/confirmation/:token': {
            status: 422,
            body: { message: 'The link is invalid or has expired', code: 'auth_link_invalid' },
          },
          'GET /api/v2/settings/general': { body: buildGeneralSettings() },
          'GET /api/v2/settings/security': { body: buildSecuritySettings() },
          'GET /api/v2/settings/session': { body: [] },
          'GET /api/v2/api_key': { body: [] },
          'GET /api/v3/profile/balance': { body: [] },
          'GET /api/v3/profile/balance/:ticker': { body: buildBalance() },
          'GET /api/v3/profile/depositdata/:ticker': {
            body: { ticker: 'BTC', enabled: true, paymentList: [] },
          },
          'GET /api/v3/profile/withdrawaldata/:ticker': {
            body: { ticker: 'BTC', enabled: true, paymentList: [] },
          },
          'GET /api/v2/whitelisted-addresses': { body: { enabled: false, records: [] } },
        },
      });
      const heading = await screen.findByRole('heading', { level: 1 });
      expect(heading.textContent).not.toBe('');
      expect(screen.queryByText('This page failed to load')).toBeNull();
      expect(location().startsWith(prefix)).toBe(true);
      if (!loadingFirst.has(entry.path)) expect(location()).not.toContain('not-found');
    },
  );
});
