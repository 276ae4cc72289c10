import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../../db/database.js';
import {
  claimMail,
  insertMail,
  markMailFailed,
  markMailSent,
  type OutboxRow,
  pendingMails,
} from './outbox.repo.js';
import type { MailKind } from './strings.js';
import { renderMail } from './templates.js';

/** What a mail needs to know about the person it goes to. */
export interface MailRecipient {
  email: string;
  language: string;
  anti_phishing_code: string | null;
  anti_phishing_enabled: number;
}

export interface Mailer {
  /**
   * Renders the mail in the recipient's language and stores it in the outbox (durable before
   * the request answers); with SMTP it is then delivered in the background.
   */
  send(to: MailRecipient, kind: MailKind, vars: Record<string, string>): Promise<void>;
  /** Resolves once every mail stored so far has been tried (tests, shutdown). */
  flush(): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  db: Db;
  /** SMTP when set (`smtp://user:pass@host:port`); without it mail stays in the outbox. */
  smtpUrl: string | null;
  mailFrom: string;
  log: FastifyBaseLogger;
  now: () => number;
}

const ATTEMPTS_MAX = 5;
const BATCH_SIZE = 20;
const RETRY_EVERY_MS = 30_000;

export function createMailer(options: MailerOptions): Mailer {
  const transport: Transporter | null = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : null;
  let running: Promise<void> | null = null;
  let again = false;
  const retryTimer = transport ? setInterval(() => void deliver(), RETRY_EVERY_MS) : null;
  retryTimer?.unref();

  async function deliverOne(row: OutboxRow): Promise<void> {
    if (transport === null || !(await claimMail(options.db, row))) return;
    try {
      await transport.sendMail({
        from: options.mailFrom,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
      });
      await markMailSent(options.db, row.id, options.now());
    } catch (error) {
      options.log.warn({ err: error, mailId: row.id }, 'mail delivery failed; will retry');
      await markMailFailed(options.db, row.id, String(error));
    }
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      const rows = await pendingMails(options.db, ATTEMPTS_MAX, BATCH_SIZE);
      for (const row of rows) await deliverOne(row);
    } while (again);
  }

  // NOTE: one drain at a time; a mail stored meanwhile sets `again` so the drain looks once more.
  function deliver(): Promise<void> {
    if (transport === null) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .catch((error) => options.log.error({ err: error }, 'mail outbox drain failed'))
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    async send(to, kind, vars) {
      const code = to.anti_phishing_enabled === 1 ? to.anti_phishing_code : null;
      const content = renderMail({ kind, language: to.language, vars, antiPhishingCode: code });
      await insertMail(options.db, { to: to.email, ...content }, options.now());
      void deliver();
    },
    async flush() {
      while (running) await running;
      await deliver();
    },
    close() {
      if (retryTimer) clearInterval(retryTimer);
      transport?.close();
    },
  };
}
