import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/**
 * The server's configuration. This module is the only reader of `process.env`: everything else
 * receives a `Config`, so tests build one with `configFromEnv({...})` instead of touching the
 * environment.
 */
export interface Config {
  port: number;
  host: string;
  /** Absolute path; holds the SQLite file and the generated secret key. */
  dataDir: string;
  /** PostgreSQL when set; the embedded SQLite file in `dataDir` otherwise. */
  databaseUrl: string | null;
  /** SMTP when set; mail goes to the outbox table otherwise. */
  smtpUrl: string | null;
  mailFrom: string;
  /** `SECRET_KEY`, or the key generated into `dataDir` on first start. */
  secretKey: string;
  oidc: { issuer: string; clientId: string; clientSecret: string } | null;
  nodeEnv: 'development' | 'production' | 'test';
  devTools: boolean;
  demoMaker: boolean;
  logLevel: LogLevel;
  /** The address users open (`PUBLIC_URL`): links in e-mail, the OIDC redirect, allowed Origin. */
  publicUrl: string;
  /** Multiplies every rate limit (`RATE_LIMIT_SCALE`, default 1): benchmarks raise it. */
  rateLimitScale: number;
  /**
   * Which proxies may name the client in `X-Forwarded-For` (`TRUST_PROXY`): a number of hops,
   * or addresses / CIDR ranges; false (the default) uses the connection's own address.
   */
  trustProxy: number | string | false;
  /** Withdrawals worth more wait for an operator, status 6 (`WITHDRAWAL_REVIEW_USD`, 10,000). */
  withdrawalReviewUsd: number;
  /** The engine host (see docs/decisions/engine-host.md). */
  engine: EngineConfig;
  /** The built-in simulated chains (see docs/decisions/realtime.md). */
  chains: ChainsConfig;
  /** The real-time socket's limits (see docs/decisions/realtime.md). */
  realtime: RealtimeConfig;
}

export interface ChainsConfig {
  /** A new block on every simulated chain this often (`CHAIN_BLOCK_MS`, default 5,000; 0 never). */
  blockIntervalMs: number;
}

export interface RealtimeConfig {
  /** Largest frame a client may send (`WS_MESSAGE_BYTES_MAX`, default 102,400). */
  messageBytesMax: number;
  /** Requests per second per connection (`WS_MESSAGES_PER_SECOND`, default 50). */
  messagesPerSecondMax: number;
  /** Subscriptions per connection (`WS_SUBSCRIPTIONS_MAX`, default 200). */
  subscriptionsMax: number;
  /** Open connections per IP address (`WS_CONNECTIONS_PER_IP`, default 50). */
  connectionsPerIpMax: number;
  /** Pushes leave at most this often (`WS_PUSH_INTERVAL_MS`, default 50). */
  pushIntervalMs: number;
  /** A client whose unsent data would pass this is closed (`WS_BUFFER_BYTES_MAX`, 1 MiB). */
  bufferedBytesMax: number;
}

export interface EngineConfig {
  /** Commands waiting at most before new ones get 503 (`ENGINE_QUEUE_MAX`, default 10,000). */
  queueMax: number;
  /** A snapshot after this many journal entries (`ENGINE_SNAPSHOT_EVERY`, default 50,000). */
  snapshotEveryCommands: number;
  /**
   * Open orders one user may have at once over all markets, stops and OCO legs included
   * (`OPEN_ORDERS_PER_USER_MAX`, default 1,000; 0 for no cap): set in the engine at each start.
   */
  openOrdersPerUserMax: number;
  /**
   * Test only (`ENGINE_SNAPSHOT_WRITE_DELAY_MS`, ignored in production): holds each snapshot's
   * transaction open this long, so a crash test can kill the process during one.
   */
  snapshotWriteDelayMs: number;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** A configuration value that cannot be used; the message is one line naming the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const secretKeyLengthMin = 32;
const secretKeyFileName = 'secret-key';

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/**
 * A hop count, or proxy addresses in the forms proxy-addr (Fastify's `trustProxy`) reads. `true`
 * (trust any sender) is refused: then every client could pick its own address for the limits.
 */
function isTrustedProxyList(value: string): boolean {
  if (/^[1-9]$/.test(value)) return true;
  const names = new Set(['loopback', 'linklocal', 'uniquelocal']);
  const ipv4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}(\/([12]?\d|3[0-2]))?$/;
  const ipv6 = /^[0-9a-f:.]*:[0-9a-f:.]*(\/(12[0-8]|1[01]\d|[1-9]?\d))?$/i;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .every((entry) => names.has(entry) || ipv4.test(entry) || ipv6.test(entry));
}

// NOTE: environment values are strings; `optionalText` first so that `PORT=` counts as unset.
const flag = optionalText.pipe(
  z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], {
      error: 'must be one of 1, 0, true, false, yes, no, on, off',
    })
    .transform((value) => ['1', 'true', 'yes', 'on'].includes(value))
    .optional(),
);

function urlWithScheme(schemes: readonly string[]) {
  const expected = schemes.map((scheme) => `${scheme}://`).join(' or ');
  return optionalText.pipe(
    z
      .string()
      .refine((value) => {
        try {
          return schemes.includes(new URL(value).protocol.replace(/:$/, ''));
        } catch {
          return false;
        }
      }, `must be a URL starting with ${expected}`)
      .optional(),
  );
}

function positiveInteger(fallback: number) {
  return optionalText.pipe(
    z
      .string()
      .regex(/^[1-9]\d{0,8}$/, 'must be a whole number from 1 to 999999999')
      .transform(Number)
      .default(fallback),
  );
}

function wholeNumber(fallback: number) {
  return optionalText.pipe(
    z
      .string()
      .regex(/^\d{1,9}$/, 'must be a whole number from 0 to 999999999')
      .transform(Number)
      .default(fallback),
  );
}

const envSchema = z.object({
  PORT: optionalText.pipe(
    z
      .string()
      .regex(/^\d{1,5}$/, 'must be a whole number from 0 to 65535')
      .transform(Number)
      .refine((port) => port <= 65535, 'must be a whole number from 0 to 65535')
      .default(3000),
  ),
  HOST: optionalText.pipe(z.string().default('0.0.0.0')),
  DATA_DIR: optionalText.pipe(z.string().default('./data')),
  DATABASE_URL: urlWithScheme(['postgres', 'postgresql']),
  SMTP_URL: urlWithScheme(['smtp', 'smtps']),
  MAIL_FROM: optionalText.pipe(
    z
      .string()
      .regex(/@/, 'must be an e-mail address, optionally with a name: Name <me@host>')
      .default('Lattice Exchange <no-reply@lattice.localhost>'),
  ),
  SECRET_KEY: optionalText.pipe(
    z
      .string()
      .min(secretKeyLengthMin, `must be at least ${secretKeyLengthMin} characters`)
      .optional(),
  ),
  OIDC_ISSUER: urlWithScheme(['https', 'http']),
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  PUBLIC_URL: urlWithScheme(['https', 'http']),
  RATE_LIMIT_SCALE: optionalText.pipe(
    z
      .string()
      .regex(/^\d{1,6}(\.\d{1,3})?$/, 'must be a positive number such as 1, 0.5 or 100')
      .transform(Number)
      .refine((scale) => scale > 0, 'must be a positive number such as 1, 0.5 or 100')
      .default(1),
  ),
  TRUST_PROXY: optionalText.pipe(
    z
      .string()
      .refine(isTrustedProxyList, {
        message:
          'must be a number of proxy hops from 1 to 9, or a comma-separated list of IP addresses, CIDR ranges, loopback, linklocal or uniquelocal',
      })
      .transform((value) => (/^[1-9]$/.test(value) ? Number(value) : value.replace(/\s+/g, '')))
      .optional(),
  ),
  WITHDRAWAL_REVIEW_USD: positiveInteger(10_000),
  NODE_ENV: optionalText.pipe(
    z
      .enum(['development', 'production', 'test'], {
        error: 'must be development, production or test',
      })
      .default('development'),
  ),
  DEV_TOOLS: flag,
  DEMO_MAKER: flag,
  ENGINE_QUEUE_MAX: positiveInteger(10_000),
  ENGINE_SNAPSHOT_EVERY: positiveInteger(50_000),
  OPEN_ORDERS_PER_USER_MAX: wholeNumber(1_000),
  ENGINE_SNAPSHOT_WRITE_DELAY_MS: optionalText.pipe(
    z
      .string()
      .regex(/^\d{1,5}$/, 'must be a whole number of milliseconds')
      .transform(Number)
      .default(0),
  ),
  CHAIN_BLOCK_MS: wholeNumber(5_000),
  WS_MESSAGE_BYTES_MAX: positiveInteger(102_400),
  WS_MESSAGES_PER_SECOND: positiveInteger(50),
  WS_SUBSCRIPTIONS_MAX: positiveInteger(200),
  WS_CONNECTIONS_PER_IP: positiveInteger(50),
  WS_PUSH_INTERVAL_MS: positiveInteger(50),
  WS_BUFFER_BYTES_MAX: positiveInteger(1_048_576),
  LOG_LEVEL: optionalText.pipe(
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be fatal, error, warn, info, debug, trace or silent',
      })
      .optional(),
  ),
});

/** The variables this server reads, for documentation and error messages. */
export const configVariables = Object.keys(envSchema.shape);

/**
 * Validates an environment; throws `ConfigError` naming every bad variable on one line. Without
 * `SECRET_KEY` it reads (or on first start generates) the key stored in `DATA_DIR`.
 */
export function configFromEnv(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${name} ${issue.message} (got ${JSON.stringify(env[name] ?? '')})`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const vars = parsed.data;
  const production = vars.NODE_ENV === 'production';
  const dataDir = resolve(vars.DATA_DIR);
  return {
    port: vars.PORT,
    host: vars.HOST,
    dataDir,
    databaseUrl: vars.DATABASE_URL ?? null,
    smtpUrl: vars.SMTP_URL ?? null,
    mailFrom: vars.MAIL_FROM,
    secretKey: vars.SECRET_KEY ?? storedSecretKey(dataDir),
    oidc: oidcFrom(vars.OIDC_ISSUER, vars.OIDC_CLIENT_ID, vars.OIDC_CLIENT_SECRET),
    nodeEnv: vars.NODE_ENV,
    devTools: vars.DEV_TOOLS ?? !production,
    demoMaker: vars.DEMO_MAKER ?? !production,
    logLevel: vars.LOG_LEVEL ?? (vars.NODE_ENV === 'test' ? 'silent' : 'info'),
    publicUrl: (vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`).replace(/\/+$/, ''),
    rateLimitScale: vars.RATE_LIMIT_SCALE,
    trustProxy: vars.TRUST_PROXY ?? false,
    withdrawalReviewUsd: vars.WITHDRAWAL_REVIEW_USD,
    engine: {
      queueMax: vars.ENGINE_QUEUE_MAX,
      snapshotEveryCommands: vars.ENGINE_SNAPSHOT_EVERY,
      openOrdersPerUserMax: vars.OPEN_ORDERS_PER_USER_MAX,
      snapshotWriteDelayMs: production ? 0 : vars.ENGINE_SNAPSHOT_WRITE_DELAY_MS,
    },
    chains: { blockIntervalMs: vars.CHAIN_BLOCK_MS },
    realtime: {
      messageBytesMax: vars.WS_MESSAGE_BYTES_MAX,
      messagesPerSecondMax: vars.WS_MESSAGES_PER_SECOND,
      subscriptionsMax: vars.WS_SUBSCRIPTIONS_MAX,
      connectionsPerIpMax: vars.WS_CONNECTIONS_PER_IP,
      pushIntervalMs: vars.WS_PUSH_INTERVAL_MS,
      bufferedBytesMax: vars.WS_BUFFER_BYTES_MAX,
    },
  };
}

function oidcFrom(
  issuer: string | undefined,
  clientId: string | undefined,
  clientSecret: string | undefined,
): Config['oidc'] {
  const given = { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret };
  const missing = Object.entries(given).filter(([, value]) => value === undefined);
  if (missing.length === 3) return null;
  if (missing.length > 0 || !issuer || !clientId || !clientSecret) {
    const names = missing.map(([name]) => name).join(', ');
    throw new ConfigError(
      `Invalid configuration: ${names} must be set too when any OIDC_* variable is set`,
    );
  }
  return { issuer, clientId, clientSecret };
}

/** The key kept in `dataDir`, generated there (readable by the owner only) when missing. */
function storedSecretKey(dataDir: string): string {
  const path = join(dataDir, secretKeyFileName);
  let secretKey: string;
  try {
    secretKey = readFileSync(path, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    secretKey = randomBytes(32).toString('hex');
    // `wx` fails if another process created the file meanwhile; then its key wins.
    try {
      writeFileSync(path, `${secretKey}\n`, { flag: 'wx', mode: 0o600 });
      chmodSync(path, 0o600);
    } catch {
      secretKey = readFileSync(path, 'utf8').trim();
    }
  }
  if (secretKey.length < secretKeyLengthMin) {
    throw new ConfigError(
      `Invalid configuration: SECRET_KEY stored in ${path} is shorter than ${secretKeyLengthMin} characters`,
    );
  }
  return secretKey;
}

/** Reads and validates `process.env`. */
export function loadConfig(): Config {
  return configFromEnv(process.env);
}
