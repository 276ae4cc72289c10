import { MAIL_LANGUAGES, MAIL_STRINGS, type MailKind, type MailLanguage } from './strings.js';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export interface MailInput {
  kind: MailKind;
  language: string;
  /** Placeholder values; `action` is the link or code the mail is for, when it has one. */
  vars: Record<string, string>;
  /** The user's anti-phishing code: every mail shows it when the user has set one. */
  antiPhishingCode: string | null;
}

/** The supported language for a user's preference, English when we have no translation. */
export function mailLanguage(language: string): MailLanguage {
  return (MAIL_LANGUAGES as readonly string[]).includes(language)
    ? (language as MailLanguage)
    : 'en';
}

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function actionHtml(action: string): string {
  const safe = escapeHtml(action);
  if (/^https?:\/\//.test(action)) return `<p><a href="${safe}">${safe}</a></p>`;
  return `<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${safe}</p>`;
}

/** Renders one mail in the user's language, with the anti-phishing code at the top. */
export function renderMail(input: MailInput): MailContent {
  const strings = MAIL_STRINGS[mailLanguage(input.language)];
  const wording = strings.mails[input.kind];
  const phishingLine =
    input.antiPhishingCode === null
      ? strings.noAntiPhishing
      : fill(strings.antiPhishing, { code: input.antiPhishingCode });
  const paragraphs = wording.body.map((line) => fill(line, input.vars));
  const subject = fill(wording.subject, input.vars);
  const text = [phishingLine, '', ...paragraphs.flatMap((p) => [p, '']), strings.footer].join('\n');
  const bodyHtml = wording.body
    .map((line) =>
      line === '{action}'
        ? actionHtml(input.vars.action ?? '')
        : `<p>${escapeHtml(fill(line, input.vars))}</p>`,
    )
    .join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<p style="background:#f1f5f9;padding:8px"><strong>${escapeHtml(phishingLine)}</strong></p>`,
    bodyHtml,
    `<p style="color:#64748b;font-size:12px">${escapeHtml(strings.footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
