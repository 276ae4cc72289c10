import { baseUrl } from './browser.js';

interface Mail {
  id: number;
  to: string;
  subject: string;
  text: string;
  createdAt: number;
}

/** The newest mail to `to` whose subject or text matches `pattern`, waiting for it. */
export async function waitForMail(
  to: string,
  pattern: RegExp,
  timeoutMs = 15_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/api/dev/mail?to=${encodeURIComponent(to)}`);
    if (response.ok) {
      for (const mail of (await response.json()) as Mail[]) {
        const match = `${mail.subject}\n${mail.text}`.match(pattern);
        if (match) return match;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`no mail to ${to} matching ${pattern} within ${timeoutMs} ms`);
}
