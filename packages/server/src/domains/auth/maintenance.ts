import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';
import { deleteExpiredSignatures } from '../apiKeys/apiKeys.repo.js';
import { deleteExpiredSessions } from './sessions.repo.js';

const PRUNE_EVERY_MS = 10 * 60_000;

/** Deletes sessions past their absolute end, spent signatures and dead e-mail links. */
export async function pruneExpired(db: Db, now: number): Promise<void> {
  await deleteExpiredSessions(db, now);
  await deleteExpiredSignatures(db, now);
  await db.deleteFrom('email_tokens').where('expires_at', '<', now).execute();
}

/** Prunes every 10 minutes while the app runs, so the tables do not grow with time. */
export function schedulePruning(app: FastifyInstance, now: () => number): void {
  const timer = setInterval(() => {
    pruneExpired(app.db, now()).catch((error: unknown) =>
      app.log.warn({ err: error }, 'pruning expired sessions failed'),
    );
  }, PRUNE_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
