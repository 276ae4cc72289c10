import {
  type WhitelistAddressJson,
  whitelistAddBody,
  whitelistDeleteBody,
  whitelistModeBody,
} from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError, validationError } from '../../http/errors.js';
import { requireUser, signedInUser } from '../auth/requestAuth.js';
import { verifyUserTotp } from '../auth/twoFactor.js';
import { cachedReferenceData } from '../markets/referenceCache.js';
import {
  deleteWhitelistAddress,
  insertWhitelistAddress,
  setWhitelistMode,
  userWhitelist,
  type WhitelistAddressRow,
  whitelistModeOn,
} from './whitelist.repo.js';

function presentAddress(row: WhitelistAddressRow): WhitelistAddressJson {
  return {
    id: Number(row.id),
    name: row.name,
    address: row.address,
    coin: row.asset,
    memo: row.memo === '' ? null : row.memo,
    date: Number(row.created_at) / 1000,
  };
}

/** The withdrawal whitelist over HTTP (SPEC.md §7 "Whitelist"); changes need a 2FA code. */
export async function whitelistRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const now = app.accounts.now;
  const read = { preHandler: requireUser, config: { apiKeyScope: 'read' as const } };
  const write = { preHandler: requireUser, config: { apiKeyScope: 'withdraw' as const } };

  app.get('/api/v2/whitelisted-addresses', read, async (request) => {
    const userId = signedInUser(request).user.id;
    const [rows, enabled] = await Promise.all([
      userWhitelist(db, userId),
      whitelistModeOn(db, userId),
    ]);
    return { enabled, records: rows.map(presentAddress) };
  });

  app.post('/api/v2/whitelist-address', write, async (request, reply) => {
    const body = whitelistAddBody.parse(request.body);
    const { user } = signedInUser(request);
    const reference = await cachedReferenceData(db);
    if (!reference.assets.some((asset) => asset.ticker === body.coin)) {
      throw validationError({ coin: ['Unknown currency'] });
    }
    await verifyUserTotp(app.accounts, user, body.code, request.ip);
    const row = {
      user_id: user.id,
      name: body.name,
      asset: body.coin,
      address: body.address,
      memo: body.memo ?? '',
      created_at: now(),
    };
    const id = await insertWhitelistAddress(db, row);
    reply.code(201);
    return presentAddress({ ...row, id });
  });

  app.post('/api/v2/2fa-confirm-whitelist', write, async (request) => {
    const body = whitelistModeBody.parse(request.body);
    const { user } = signedInUser(request);
    await verifyUserTotp(app.accounts, user, body.code, request.ip);
    await setWhitelistMode(db, user.id, body.enabled, now());
    return { enabled: body.enabled };
  });

  app.post('/api/v2/delete-whitelisted-address', write, async (request) => {
    const { id } = whitelistDeleteBody.parse(request.body);
    const deleted = await deleteWhitelistAddress(db, signedInUser(request).user.id, id);
    if (!deleted) throw new AppError('whitelist_address_not_found');
    return { status: 'ok' };
  });
}
