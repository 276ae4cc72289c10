import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from './config.js';

const secret = { SECRET_KEY: 'a-secret-key-of-thirty-two-characters!' };

function errorOf(env: Record<string, string>): string {
  try {
    configFromEnv({ ...secret, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('configFromEnv', () => {
  it('gives the embedded set-up by default', () => {
    const config = configFromEnv(secret);
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: null,
      smtpUrl: null,
      oidc: null,
      nodeEnv: 'development',
      devTools: true,
      demoMaker: true,
      logLevel: 'info',
    });
    expect(config.dataDir).toBe(join(process.cwd(), 'data'));
  });

  it('turns dev tools and the demo maker off in production unless asked for', () => {
    expect(configFromEnv({ ...secret, NODE_ENV: 'production' })).toMatchObject({
      devTools: false,
      demoMaker: false,
    });
    expect(configFromEnv({ ...secret, NODE_ENV: 'production', DEV_TOOLS: '1' }).devTools).toBe(
      true,
    );
    expect(configFromEnv({ ...secret, DEMO_MAKER: 'off' }).demoMaker).toBe(false);
  });

  it('reads every variable it is given', () => {
    const config = configFromEnv({
      ...secret,
      PORT: '8080',
      DATABASE_URL: 'postgres://app@db:5432/lattice',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      MAIL_FROM: 'Exchange <desk@example.com>',
      OIDC_ISSUER: 'https://accounts.google.com',
      OIDC_CLIENT_ID: 'id',
      OIDC_CLIENT_SECRET: 'shh',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://app@db:5432/lattice',
      smtpUrl: 'smtps://user:pass@mail.example.com:465',
      mailFrom: 'Exchange <desk@example.com>',
      oidc: { issuer: 'https://accounts.google.com', clientId: 'id', clientSecret: 'shh' },
      logLevel: 'debug',
      secretKey: secret.SECRET_KEY,
    });
  });

  it('treats an empty value as unset', () => {
    expect(configFromEnv({ ...secret, PORT: '', DATABASE_URL: '' })).toMatchObject({
      port: 3000,
      databaseUrl: null,
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['DATABASE_URL', 'mysql://x@y/z'],
    ['DATABASE_URL', 'not a url'],
    ['SMTP_URL', 'http://mail'],
    ['SECRET_KEY', 'short'],
    ['NODE_ENV', 'staging'],
    ['DEV_TOOLS', 'maybe'],
    ['DEMO_MAKER', '2'],
    ['LOG_LEVEL', 'loud'],
    ['OIDC_ISSUER', 'nope'],
    ['MAIL_FROM', 'nobody'],
  ])('refuses %s=%s on one line naming the variable', (name, value) => {
    const message = errorOf({ [name]: value });
    expect(message).toContain(name);
    expect(message).toContain(JSON.stringify(value));
    expect(message).not.toContain('\n');
  });

  it('names every bad variable at once, still on one line', () => {
    const message = errorOf({ PORT: 'abc', LOG_LEVEL: 'loud' });
    expect(message).toMatch(/PORT .*; LOG_LEVEL /);
    expect(message).not.toContain('\n');
  });

  it('reads TRUST_PROXY as a hop count or a list of proxy addresses, never as any sender', () => {
    expect(configFromEnv(secret).trustProxy).toBe(false);
    expect(configFromEnv({ ...secret, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    const list = configFromEnv({ ...secret, TRUST_PROXY: '10.0.0.0/8, loopback, ::1' });
    expect(list.trustProxy).toBe('10.0.0.0/8,loopback,::1');
    for (const bad of ['true', '0', '300.1.1.1', '10.0.0.0/33', 'proxy.example.com']) {
      expect(errorOf({ TRUST_PROXY: bad })).toContain('TRUST_PROXY must be a number of proxy hops');
    }
  });

  it('wants all three OIDC variables or none', () => {
    expect(errorOf({ OIDC_ISSUER: 'https://id.example.com' })).toContain(
      'OIDC_CLIENT_ID, OIDC_CLIENT_SECRET',
    );
  });

  it('generates the secret key into DATA_DIR once, readable by the owner only', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lattice-config-'));
    try {
      const first = configFromEnv({ DATA_DIR: dataDir });
      const second = configFromEnv({ DATA_DIR: dataDir });
      expect(first.secretKey).toMatch(/^[0-9a-f]{64}$/);
      expect(second.secretKey).toBe(first.secretKey);
      const file = join(dataDir, 'secret-key');
      expect(readFileSync(file, 'utf8').trim()).toBe(first.secretKey);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('starting with a bad value', () => {
  it('stops with exit code 1 and one line naming the variable', () => {
    const serverDir = fileURLToPath(new URL('..', import.meta.url));
    const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
    const run = spawnSync(tsx, ['src/main.ts'], {
      cwd: serverDir,
      env: { ...process.env, PORT: 'abc' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'Invalid configuration: PORT must be a whole number from 0 to 65535 (got "abc")\n',
    );
  });
});
