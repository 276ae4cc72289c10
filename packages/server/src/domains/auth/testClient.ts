import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { hashPassword } from './passwords.js';
import { createSession, SESSION_COOKIE } from './sessions.js';
import { createTotpSecret } from './totp.js';
import { findUserById, insertUser, type UserRow, updateUser } from './users.repo.js';

/**
 * A browser for `app.inject()`: keeps cookies and the CSRF token the way the web app does
 * (the token of `GET /api/systemParams`, replaced by the one each POST response carries).
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  csrfToken: string | null = null;

  constructor(
    readonly app: FastifyInstance,
    readonly headers: Record<string, string> = {},
    /** The client's IP address as the server sees it. */
    readonly remoteAddress = '127.0.0.1',
  ) {}

  async request(
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.app.inject({
      method,
      url,
      remoteAddress: this.remoteAddress,
      headers: {
        ...this.headers,
        ...(cookie ? { cookie } : {}),
        ...(this.csrfToken ? { 'x-csrf-token': this.csrfToken } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });
    for (const set of response.cookies as { name: string; value: string; maxAge?: number }[]) {
      if (set.maxAge === 0 || set.value === '') this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    const token = response.headers['x-csrf-token'];
    if (typeof token === 'string') this.csrfToken = token;
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request('GET', url, undefined, headers);
  }

  post(url: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request('POST', url, body, headers);
  }

  delete(url: string, headers?: Record<string, string>) {
    return this.request('DELETE', url, undefined, headers);
  }

  /** Loads the page globals (and with them a CSRF token), as the web app does first. */
  async bootstrap(): Promise<Record<string, unknown>> {
    const response = await this.get('/api/systemParams');
    const params = response.json() as { csrfToken: string };
    this.csrfToken = params.csrfToken;
    return params;
  }
}

export interface TestUser {
  user: UserRow;
  email: string;
  password: string;
  /** The TOTP secret when the user was created with 2FA on. */
  totpSecret: string | null;
  /** A client signed in as this user, with its CSRF token loaded. */
  client: TestClient;
}

let userCounter = 0;

/**
 * A confirmed user and a client already signed in as them, without the HTTP sign-in steps
 * (for tests of other domains). The session is a real one: same cookie, same checks.
 */
export async function createSignedInUser(
  app: FastifyInstance,
  options: { email?: string; password?: string; twoFactor?: boolean; kyc?: boolean } = {},
): Promise<TestUser> {
  const { db, now, totpBox } = app.accounts;
  userCounter += 1;
  const email = options.email ?? `user${userCounter}.${Date.now()}@example.com`;
  const password = options.password ?? 'Str0ng!password';
  const id = await insertUser(db, {
    email,
    passwordHash: await hashPassword(password),
    country: 'DE',
    language: 'en',
    emailVerifiedAt: now(),
    googleSubject: null,
    now: now(),
  });
  if (id === null) throw new Error(`createSignedInUser: ${email} already exists`);
  const totpSecret = options.twoFactor ? createTotpSecret() : null;
  if (totpSecret !== null || options.kyc) {
    await updateUser(
      db,
      id,
      {
        ...(totpSecret === null ? {} : { totp_secret: totpBox.seal(totpSecret) }),
        ...(options.kyc ? { kyc_status: 'verified' } : {}),
      },
      now(),
    );
  }
  const client = await signedInClient(app, id);
  const user = (await findUserById(db, id)) as UserRow;
  return { user, email, password, totpSecret, client };
}

/** A client holding a fresh signed-in session of user `userId`. */
export async function signedInClient(app: FastifyInstance, userId: number): Promise<TestClient> {
  const { db, now } = app.accounts;
  const { token } = await createSession(
    db,
    userId,
    'active',
    { ip: '127.0.0.1', userAgent: 'lightMyRequest' },
    now(),
  );
  const client = new TestClient(app);
  client.cookies.set(SESSION_COOKIE, token);
  await client.bootstrap();
  return client;
}
