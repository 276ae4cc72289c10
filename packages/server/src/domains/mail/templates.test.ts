import { describe, expect, it } from 'vitest';
import { MAIL_LANGUAGES, MAIL_STRINGS, type MailKind } from './strings.js';
import { renderMail } from './templates.js';

describe('mail templates', () => {
  it('exist for every kind in every language', () => {
    const kinds = Object.keys(MAIL_STRINGS.en.mails) as MailKind[];
    for (const language of MAIL_LANGUAGES) {
      expect(Object.keys(MAIL_STRINGS[language].mails).sort()).toEqual([...kinds].sort());
    }
  });

  it('show the anti-phishing code in text and HTML, in the user language', () => {
    const mail = renderMail({
      kind: 'device_code',
      language: 'ru',
      vars: { action: '123456', code: '123456', device: 'Firefox', ip: '10.0.0.1' },
      antiPhishingCode: 'Blue-Whale',
    });
    expect(mail.subject).toBe('Код для входа: 123456');
    expect(mail.text).toContain('Ваш антифишинговый код: Blue-Whale');
    expect(mail.html).toContain('Blue-Whale');
    expect(mail.text).toContain('123456');
  });

  it('falls back to English and escapes HTML in values', () => {
    const mail = renderMail({
      kind: 'verify_email',
      language: 'xx',
      vars: { action: 'https://ex.test/verify?token=a&b=<c>' },
      antiPhishingCode: '<b>',
    });
    expect(mail.subject).toBe('Confirm your e-mail');
    expect(mail.html).toContain('&lt;b&gt;');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('href="https://ex.test/verify?token=a&amp;b=&lt;c&gt;"');
  });
});
