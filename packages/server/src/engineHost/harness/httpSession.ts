import http from 'node:http';

export interface HttpAnswer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  readonly body: unknown;
}

/**
 * A signed-in API client over keep-alive HTTP, as the web app behaves: it keeps cookies and
 * sends the CSRF token, replacing it with the one each POST answer carries.
 */
export class HttpSession {
  private readonly cookies = new Map<string, string>();
  private csrfToken: string | null = null;
  private readonly agent: http.Agent;

  constructor(
    public baseUrl: string,
    socketsMax = 4,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: socketsMax });
  }

  /** Signs in by e-mail and password, confirming a new device with the code from the dev mailbox. */
  static async signIn(baseUrl: string, email: string, password: string): Promise<HttpSession> {
    const session = new HttpSession(baseUrl);
    const params = await session.request('GET', '/api/systemParams');
    session.csrfToken = (params.body as { csrfToken: string }).csrfToken;
    const first = await session.request('POST', '/api/v2/login', { email, password });
    let status = (first.body as { status?: string }).status;
    if (status === 'device_confirmation') {
      const mail = await session.request('GET', `/api/dev/mail?to=${encodeURIComponent(email)}`);
      const text = (mail.body as { text: string }[])[0]?.text ?? '';
      const code = /\b(\d{6})\b/.exec(text)?.[1];
      if (!code) throw new Error(`no device code in the mail to ${email}`);
      const second = await session.request('POST', '/api/v2/login', {
        email,
        password,
        device_code: code,
      });
      status = (second.body as { status?: string }).status;
    }
    if (status !== 'ok') throw new Error(`sign-in of ${email} ended with ${String(status)}`);
    return session;
  }

  request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpAnswer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const url = new URL(path, this.baseUrl);
    return new Promise((resolve, reject) => {
      const request = http.request(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            ...(payload === undefined
              ? {}
              : {
                  'content-type': 'application/json',
                  'content-length': Buffer.byteLength(payload),
                }),
            ...(this.cookies.size > 0 ? { cookie: this.cookieHeader() } : {}),
            ...(this.csrfToken ? { 'x-csrf-token': this.csrfToken } : {}),
            ...headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            this.remember(response.headers);
            const text = Buffer.concat(chunks).toString();
            let parsed: unknown = text;
            try {
              parsed = text === '' ? null : JSON.parse(text);
            } catch {}
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed });
          });
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  /** Drops open connections (after the server restarted). */
  resetConnections(): void {
    this.agent.destroy();
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private remember(headers: http.IncomingHttpHeaders): void {
    for (const cookie of headers['set-cookie'] ?? []) {
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const token = headers['x-csrf-token'];
    if (typeof token === 'string') this.csrfToken = token;
  }
}
