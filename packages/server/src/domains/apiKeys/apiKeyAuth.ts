import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';
import { fail } from '../auth/fail.js';
import { authStateOf } from '../auth/requestAuth.js';
import { findUserById } from '../auth/users.repo.js';
import {
  deleteExpiredSignatures,
  findApiKeyByKey,
  ipAllowListOf,
  recordSignature,
  scopesOf,
  touchApiKey,
} from './apiKeys.repo.js';
import { ipAllowed } from './ipAllowList.js';
import {
  API_KEY_HEADER,
  API_SIGNATURE_HEADER,
  API_TIMESTAMP_HEADER,
  checkSignature,
  SIGNATURE_WINDOW_MS,
} from './signature.js';

const rawBodies = new WeakMap<FastifyRequest, string>();
/** `last_used_at` is written at most this often per key. */
const TOUCH_EVERY_MS = 60_000;
/** Accepted signatures are forgotten once their timestamp is out of the window for good. */
const SIGNATURE_KEEP_MS = 2 * SIGNATURE_WINDOW_MS;
const PRUNE_EVERY = 500;

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Requests carrying `X-API-KEY` are authenticated by their signature, not by a cookie: the raw
 * body is kept while it is read (the HMAC covers the bytes as sent), and the signature, the
 * key's IP allow-list and the once-only rule are checked before the route's validation.
 */
export function apiKeyHooks(app: FastifyInstance): void {
  const counter = { accepted: 0 };
  // NOTE: callback style, not async: every request passes these hooks, nearly all without an
  // API key, and an async hook costs a promise and a turn of the microtask queue each.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.headers[API_KEY_HEADER] === undefined) {
      done(null, payload);
      return;
    }
    keepRawBody(request, payload).then(
      (replay) => done(null, replay),
      (error: Error) => done(error),
    );
  });

  app.addHook('preValidation', (request, _reply, done) => {
    const apiKey = header(request, API_KEY_HEADER);
    if (apiKey === undefined) {
      done();
      return;
    }
    authenticate(app, request, apiKey, counter).then(
      () => done(),
      (error: Error) => done(error),
    );
  });
}

/** Reads the body, keeps its text for the signature, and hands the route the same bytes. */
async function keepRawBody(request: FastifyRequest, payload: Readable): Promise<Readable> {
  const bodyLimit = request.server.initialConfig.bodyLimit ?? 1_048_576;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > bodyLimit) throw new AppError('request_body_too_large');
    chunks.push(buffer);
  }
  const raw = Buffer.concat(chunks);
  rawBodies.set(request, raw.toString('utf8'));
  const replay = Readable.from([raw]) as Readable & { receivedEncodedLength?: number };
  replay.receivedEncodedLength = raw.length;
  return replay;
}

/** Checks a signed request and records its caller; throws the catalogue error of a refusal. */
async function authenticate(
  app: FastifyInstance,
  request: FastifyRequest,
  apiKey: string,
  counter: { accepted: number },
): Promise<void> {
  const { db, apiKeyBox, now } = app.accounts;
  const timestamp = header(request, API_TIMESTAMP_HEADER) ?? '';
  const signature = header(request, API_SIGNATURE_HEADER) ?? '';
  const row = apiKey.length <= 64 ? await findApiKeyByKey(db, apiKey) : undefined;
  if (row === undefined || row.is_enabled !== 1) fail('api_key_invalid');
  const nowMs = now();
  const parts = {
    timestamp,
    method: request.method,
    pathAndQuery: request.url,
    body: rawBodies.get(request) ?? '',
  };
  const check = checkSignature(apiKeyBox.open(row.secret_sealed), parts, signature, nowMs);
  if (check === 'expired') fail('api_key_signature_expired');
  if (check !== 'ok') fail('api_key_invalid');
  if (!ipAllowed(ipAllowListOf(row), request.ip)) fail('api_key_ip_not_allowed');
  if (!(await recordSignature(db, signature, Number(timestamp) + SIGNATURE_KEEP_MS))) {
    fail('api_key_signature_replayed');
  }
  counter.accepted += 1;
  if (counter.accepted % PRUNE_EVERY === 0) await deleteExpiredSignatures(db, nowMs);
  const user = await findUserById(db, row.user_id);
  if (user === undefined) fail('api_key_invalid');
  if (row.last_used_at === null || nowMs - row.last_used_at >= TOUCH_EVERY_MS) {
    await touchApiKey(db, row.id, nowMs);
  }
  authStateOf(request).apiKeyAuth = {
    user,
    session: null,
    apiKey: { id: row.id, scopes: scopesOf(row) },
  };
}
