import { totpCodeAt } from './totp.js';

/** A signed-in HTTP client's credentials: send both with every request. */
export interface HttpSession {
  /** The `Cookie` header value (session and device cookies). */
  cookie: string;
  /** The `X-CSRF-Token` header value for requests other than GET. */
  csrfToken: string;
  /** Headers for a JSON request with this session. */
  headers(): Record<string, string>;
}

/**
 * Signs in over HTTP as a browser would, for scripts, benchmarks and browser tests against a
 * running server: page globals, password, the new-device code from the development mailbox
 * (DEV_TOOLS must be on), and the 2FA code when a TOTP secret is given.
 */
export async function signInOverHttp(
  baseUrl: string,
  account: { email: string; password: string; totpSecret?: string },
): Promise<HttpSession> {
  const cookies = new Map<string, string>();
  let csrfToken = '';
  const session: HttpSession = {
    get cookie() {
      return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    get csrfToken() {
      return csrfToken;
    },
    headers() {
      return { cookie: this.cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' };
    },
  };
  async function call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers: session.headers(),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair = ''] = setCookie.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    csrfToken = response.headers.get('x-csrf-token') ?? csrfToken;
    const json: unknown = await response.json();
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  }

  const params = (await call('GET', '/api/systemParams')) as { csrfToken: string };
  csrfToken = params.csrfToken;
  const credentials = { email: account.email, password: account.password };
  let outcome = (await call('POST', '/api/v2/login', credentials)) as { status: string };
  if (outcome.status === 'device_confirmation') {
    const mailbox = `/api/dev/mail?to=${encodeURIComponent(account.email)}`;
    const [mail] = (await call('GET', mailbox)) as { text: string }[];
    const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
    if (code === undefined) throw new Error(`no device code mailed to ${account.email}`);
    outcome = (await call('POST', '/api/v2/login', { ...credentials, device_code: code })) as {
      status: string;
    };
  }
  if (outcome.status === '2fa') {
    if (account.totpSecret === undefined) throw new Error(`${account.email} has 2FA on`);
    const code = totpCodeAt(account.totpSecret, Date.now());
    outcome = (await call('POST', '/api/v2/2fa/validate', { code })) as { status: string };
  }
  if (outcome.status !== 'ok') throw new Error(`sign-in ended in ${outcome.status}`);
  return session;
}
