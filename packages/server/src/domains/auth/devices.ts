import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import type { ClientInfo } from './sessions.js';
import { hashToken, randomDigits, randomToken, safeEqual } from './tokens.js';

/**
 * A device is a browser holding our long-lived signed cookie. A sign-in from a device the
 * account has not confirmed needs the 6-digit code we e-mail.
 */
export const DEVICE_COOKIE = 'lattice_device';
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 3600;
const CODE_TTL_MS = 15 * 60_000;
/** Wrong codes allowed per issued code; then a new code must be requested. */
const CODE_ATTEMPTS_MAX = 5;

/** The device id from the signed cookie; null when absent or tampered with. */
export function deviceIdOf(request: FastifyRequest): string | null {
  const raw = request.cookies[DEVICE_COOKIE];
  if (raw === undefined) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value !== null ? unsigned.value : null;
}

/** The device id of this browser, issuing a new signed cookie when it has none. */
export function ensureDeviceId(request: FastifyRequest, reply: FastifyReply): string {
  const existing = deviceIdOf(request);
  if (existing !== null) return existing;
  const id = randomToken(24);
  reply.setCookie(DEVICE_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    signed: true,
    maxAge: DEVICE_COOKIE_MAX_AGE_S,
  });
  return id;
}

function findDevice(db: Db, userId: number, deviceId: string) {
  return db
    .selectFrom('user_devices')
    .selectAll()
    .where('user_id', '=', userId)
    .where('device_hash', '=', hashToken(deviceId))
    .executeTakeFirst();
}

export async function isDeviceConfirmed(db: Db, userId: number, deviceId: string) {
  const device = await findDevice(db, userId, deviceId);
  return device?.confirmed_at != null;
}

async function upsertDevice(
  db: Db,
  userId: number,
  deviceId: string,
  client: ClientInfo,
  now: number,
  changes: { confirmed_at?: number; code_hash?: string | null; code_expires_at?: number | null },
): Promise<void> {
  await db
    .insertInto('user_devices')
    .values({
      user_id: userId,
      device_hash: hashToken(deviceId),
      confirmed_at: changes.confirmed_at ?? null,
      code_hash: changes.code_hash ?? null,
      code_expires_at: changes.code_expires_at ?? null,
      code_attempts: 0,
      user_agent: client.userAgent,
      ip_address: client.ip,
      created_at: now,
      last_seen_at: now,
    })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'device_hash']).doUpdateSet({
        ...changes,
        code_attempts: 0,
        user_agent: client.userAgent,
        ip_address: client.ip,
        last_seen_at: now,
      }),
    )
    .execute();
}

/** Marks the device confirmed (after the e-mailed code, or the e-mail confirmation link). */
export function confirmDevice(
  db: Db,
  userId: number,
  deviceId: string,
  client: ClientInfo,
  now: number,
): Promise<void> {
  return upsertDevice(db, userId, deviceId, client, now, {
    confirmed_at: now,
    code_hash: null,
    code_expires_at: null,
  });
}

/** Issues a fresh code for the device (replacing any earlier one) and returns it for the mail. */
export async function issueDeviceCode(
  db: Db,
  userId: number,
  deviceId: string,
  client: ClientInfo,
  now: number,
): Promise<string> {
  const code = randomDigits(6);
  await upsertDevice(db, userId, deviceId, client, now, {
    code_hash: hashToken(code),
    code_expires_at: now + CODE_TTL_MS,
  });
  return code;
}

/**
 * Checks an e-mailed code; a right one confirms the device. Each issued code allows a few wrong
 * tries, then it is dead and only a new code helps.
 */
export async function redeemDeviceCode(
  db: Db,
  userId: number,
  deviceId: string,
  code: string,
  client: ClientInfo,
  now: number,
): Promise<boolean> {
  const device = await findDevice(db, userId, deviceId);
  if (
    device === undefined ||
    device.code_hash === null ||
    device.code_expires_at === null ||
    device.code_expires_at < now ||
    device.code_attempts >= CODE_ATTEMPTS_MAX
  ) {
    return false;
  }
  if (!safeEqual(device.code_hash, hashToken(code))) {
    await db
      .updateTable('user_devices')
      .set({ code_attempts: device.code_attempts + 1 })
      .where('id', '=', device.id)
      .execute();
    return false;
  }
  await confirmDevice(db, userId, deviceId, client, now);
  return true;
}
