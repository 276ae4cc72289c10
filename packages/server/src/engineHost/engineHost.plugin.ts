import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { bootstrapEngine } from './bootstrap.js';
import { EngineHost } from './engineHost.js';
import { HostStore } from './hostStore.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The only way to apply commands to the engine. */
    engineHost: EngineHost;
  }
}

/**
 * Opens the engine host on the app's database (recovery, reconciliation), registers the
 * reference data, and closes it (after a last snapshot) when the app closes. With DEV_TOOLS,
 * `GET /api/dev/engine` shows the engine's journal position and state hash (null once a command
 * threw and the engine stopped).
 */
export const engineHostPlugin = fp(
  async (app: FastifyInstance) => {
    const logger = app.log.child({ module: 'engine' });
    const host = await EngineHost.open({
      store: new HostStore(app.db, app.dialect),
      logger,
      queueMax: app.config.engine.queueMax,
      snapshots: {
        everyCommands: app.config.engine.snapshotEveryCommands,
        writeDelayMs: app.config.engine.snapshotWriteDelayMs,
      },
    });
    app.decorate('engineHost', host);
    // Before every onClose hook: the snapshot in flight ends before other modules' last writes.
    app.addHook('preClose', async () => {
      await host.settleSnapshots();
    });
    app.addHook('onClose', async () => {
      await host.close();
    });
    if (host.halted === null) {
      await bootstrapEngine(host, app.db, {
        fundDemoUsers: app.config.devTools,
        logger,
        openOrdersPerUserMax: app.config.engine.openOrdersPerUserMax,
      });
    }
    if (app.config.devTools) {
      // The engine's position and state hash, for crash tests and operators comparing a
      // replay; the hash serialises the whole state, so it is computed only when asked.
      app.get('/api/dev/engine', async () => ({
        journalSeq: host.lastJournalSeq,
        lastEventSeq: host.engine.lastEventSeq,
        // A stopped engine (a command threw) has no hash to give: its state may be half changed.
        stateHash: host.engine.halted === null ? host.engine.stateHash() : null,
        halted: host.halted,
      }));
    }
  },
  { name: 'engineHost' },
);
