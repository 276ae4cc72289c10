import { emailField } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { fail, parseWith } from '../auth/fail.js';
import { findUserByEmail, updateUser } from '../auth/users.repo.js';
import { mailsTo } from '../mail/outbox.repo.js';
import { devMailPage } from './devMailPage.js';

const MAILS_SHOWN_MAX = 50;
const mailQuery = z.object({ to: emailField });
const verifyBody = z.object({ email: emailField });

/**
 * Development helpers (API.md), registered only when DEV_TOOLS is on: the mailbox of the outbox
 * and a stand-in for the admin's KYC approval.
 */
export async function devRoutes(app: FastifyInstance): Promise<void> {
  const deps = app.accounts;

  app.get('/api/dev/mail', async (request) => {
    const { to } = parseWith(mailQuery, request.query);
    const rows = await mailsTo(deps.db, to, MAILS_SHOWN_MAX);
    return rows.map((row) => ({
      id: row.id,
      to: row.to_address,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      createdAt: row.created_at / 1000,
    }));
  });

  app.get('/dev/mail', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(devMailPage),
  );

  app.post('/api/dev/users/verify', async (request) => {
    const { email } = parseWith(verifyBody, request.body);
    const user = await findUserByEmail(deps.db, email);
    if (user === undefined) fail('route_not_found', { message: 'No user with this e-mail' });
    await updateUser(deps.db, user.id, { kyc_status: 'verified' }, deps.now());
    return { status: 'ok', kyc: 'verified' };
  });
}
