import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { MailOutboxTable } from '../../db/tables/auth.js';

export type OutboxRow = Selectable<MailOutboxTable>;

export interface NewMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export async function insertMail(db: Db, mail: NewMail, now: number): Promise<number> {
  const row = await db
    .insertInto('mail_outbox')
    .values({
      to_address: mail.to,
      subject: mail.subject.slice(0, 255),
      text_body: mail.text,
      html_body: mail.html,
      created_at: now,
      sent_at: null,
      last_error: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Mails waiting for SMTP, oldest first, that have not used up their attempts. */
export function pendingMails(db: Db, attemptsMax: number, limit: number): Promise<OutboxRow[]> {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('sent_at', 'is', null)
    .where('attempts', '<', attemptsMax)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Takes one mail for delivery by counting the attempt; false when another process took it
 * first (its attempt count moved), so a mail is never sent twice by two deliverers at once.
 */
export async function claimMail(db: Db, row: OutboxRow): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ attempts: row.attempts + 1 })
    .where('id', '=', row.id)
    .where('attempts', '=', row.attempts)
    .where('sent_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function markMailSent(db: Db, id: number, now: number): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ sent_at: now, last_error: null })
    .where('id', '=', id)
    .execute();
}

export async function markMailFailed(db: Db, id: number, error: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ last_error: error.slice(0, 1000) })
    .where('id', '=', id)
    .execute();
}

/** The newest mails to one address, for the development mailbox. */
export function mailsTo(db: Db, to: string, limit: number): Promise<OutboxRow[]> {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
