import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { loadReferenceData } from '../../reference/reference.repo.js';
import { DepositWatcher } from '../deposits/depositWatcher.js';
import { ChainRegistry } from './chainRegistry.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The chain adapter of every network. */
    chains: ChainRegistry;
    /** Records deposits on the chains and credits them once confirmed. */
    depositWatcher: DepositWatcher;
  }
}

/**
 * The chains and the deposit watcher: a simulated chain per network (blocks every
 * `CHAIN_BLOCK_MS`), scanned for deposits after each block and once at start.
 */
export const chainsPlugin = fp(
  async (app: FastifyInstance) => {
    const reference = await loadReferenceData(app.db);
    const logger = app.log.child({ module: 'chains' });
    const registry = new ChainRegistry(app.db, reference.networks, {
      explorerBaseUrl: app.config.publicUrl,
      blockIntervalMs: app.config.chains.blockIntervalMs,
      logger,
    });
    const required = new Map(reference.networks.map((n) => [n.code, n.confirmations]));
    const watcher = new DepositWatcher(app.db, app.engineHost, registry, required, logger);
    registry.onBlocks((networks) => watcher.scan(networks));
    app.decorate('chains', registry);
    app.decorate('depositWatcher', watcher);
    app.addHook('onReady', async () => {
      await registry.announce();
      await registry.start();
    });
    app.addHook('onClose', async () => {
      await registry.stop();
      await watcher.saveCursors();
    });
  },
  { name: 'chains', dependencies: ['engineHost'] },
);
