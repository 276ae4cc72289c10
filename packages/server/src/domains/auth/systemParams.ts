import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import { loadReferenceData } from '../../reference/reference.repo.js';
import type { ReferenceData } from '../../reference/reference.types.js';
import { presentSessionUser } from './present.js';
import { currentCsrfToken } from './requestAuth.js';
import { SESSION_COOKIE, setSessionCookie } from './sessions.js';
import { randomToken } from './tokens.js';
import { wsTokenFor } from './wsToken.js';

const APP_NAME = 'Lattice Exchange';
/** Reference data changes only by an operator's hand; a minute of staleness is fine. */
const REFERENCE_CACHE_MS = 60_000;

const socialLinks = {
  telegram: 'https://t.me/lattice_exchange',
  twitter: 'https://x.com/lattice_exchange',
  github: 'https://github.com/lattice-exchange',
};

const caches = new WeakMap<Db, { at: number; data: Promise<ReferenceData> }>();

function referenceData(db: Db): Promise<ReferenceData> {
  const now = Date.now();
  const cached = caches.get(db);
  if (cached !== undefined && now - cached.at <= REFERENCE_CACHE_MS) return cached.data;
  const data = loadReferenceData(db);
  caches.set(db, { at: now, data });
  data.catch(() => caches.delete(db));
  return data;
}

/**
 * `GET /api/systemParams`: the page globals of SPEC.md §3 and a CSRF token. A first visit gets
 * an anonymous id cookie here, so that its token exists before the first POST (sign-in).
 */
export async function systemParams(request: FastifyRequest, reply: FastifyReply) {
  if (request.cookies[SESSION_COOKIE] === undefined) {
    const anonymousId = randomToken(32);
    request.cookies[SESSION_COOKIE] = anonymousId;
    setSessionCookie(request, reply, anonymousId, undefined);
  }
  const [reference, csrfToken] = await Promise.all([
    referenceData(request.server.accounts.db),
    currentCsrfToken(request),
  ]);
  const auth = request.auth;
  const enabledMarkets = reference.markets.filter((market) => market.enabled);
  reply.header('cache-control', 'no-store');
  return {
    csrfToken,
    appName: APP_NAME,
    defaultPair: reference.defaultPair,
    lttPair: reference.lttPair,
    marketList: enabledMarkets.map((market) => market.name),
    marginPairs: enabledMarkets.filter((market) => market.marginEnabled).map((m) => m.name),
    fiatTickers: reference.fiatTickers,
    stableTickers: reference.stableTickers,
    tickers: reference.assets.map((asset) => asset.ticker),
    defiList: [],
    socialLinks,
    blockP2PTake: false,
    blockP2PCreate: false,
    isOtcUser: false,
    wsToken:
      auth?.session != null ? wsTokenFor(request.server.accounts.secretKey, auth.session.id) : null,
    user: auth === null ? null : presentSessionUser(auth.user),
  };
}
