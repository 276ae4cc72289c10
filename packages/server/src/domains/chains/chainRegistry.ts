import type { Db } from '../../db/database.js';
import type { HostLogger } from '../../engineHost/hostLogger.js';
import type { Network } from '../../reference/reference.types.js';
import type { ChainAdapter } from './chainAdapter.js';
import { mineSimulatedChains, SimulatedChain, startSimulatedChains } from './simulatedChain.js';

/** Told that new blocks may exist on these networks. */
export type BlocksListener = (networks: readonly string[]) => Promise<void>;

/**
 * The chain adapter of every network. Without a real adapter configured, a network is
 * simulated; the registry then advances every simulated chain one block per interval.
 */
export class ChainRegistry {
  private readonly adapters = new Map<string, ChainAdapter>();
  private readonly simulated = new Map<string, SimulatedChain>();
  private readonly listeners = new Set<BlocksListener>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private readonly logger: HostLogger;
  private readonly blockIntervalMs: number;

  constructor(
    private readonly db: Db,
    networks: readonly Network[],
    options: {
      explorerBaseUrl: string;
      /** A block this often on every simulated chain; 0 only on demand. */
      blockIntervalMs: number;
      logger: HostLogger;
    },
  ) {
    this.logger = options.logger;
    this.blockIntervalMs = options.blockIntervalMs;
    for (const network of networks) {
      const chain = new SimulatedChain(
        db,
        network.code,
        network.usesMemo,
        options.explorerBaseUrl,
        options.blockIntervalMs,
      );
      this.simulated.set(network.code, chain);
      this.adapters.set(network.code, chain);
    }
  }

  adapter(network: string): ChainAdapter | undefined {
    return this.adapters.get(network);
  }

  /** The simulated chain of a network, when it is simulated. */
  simulatedChain(network: string): SimulatedChain | undefined {
    return this.simulated.get(network);
  }

  get networks(): string[] {
    return [...this.adapters.keys()];
  }

  onBlocks(listener: BlocksListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds blocks to simulated chains (one network, or all) and tells the listeners. */
  async mine(blocks: number, network?: string): Promise<void> {
    const chains =
      network === undefined
        ? [...this.simulated.values()]
        : [this.simulated.get(network)].filter((c): c is SimulatedChain => c !== undefined);
    await mineSimulatedChains(this.db, chains, blocks, Date.now());
    await this.announce(chains.map((chain) => chain.network));
  }

  /** Tells the listeners to look at every network (after a start, or a send). */
  async announce(networks: readonly string[] = this.networks): Promise<void> {
    for (const listener of this.listeners) await listener(networks);
  }

  /**
   * Tells the listeners after every block interval (none when it is 0). A chain seen for the
   * first time starts at height 0 now; one that has a height keeps the blocks made meanwhile.
   * Nothing is written per block (`SimulatedChain` computes its height from the time).
   */
  async start(): Promise<void> {
    const intervalMs = this.blockIntervalMs;
    if (intervalMs <= 0) return;
    const chains = [...this.simulated.values()];
    await startSimulatedChains(
      this.db,
      chains.map((chain) => chain.network),
      Date.now(),
    );
    this.timer = setInterval(() => {
      if (this.ticking !== null) return;
      this.ticking = this.announce(chains.map((chain) => chain.network))
        .catch((error: unknown) => this.logger.error({ err: error }, 'simulated block failed'))
        .finally(() => {
          this.ticking = null;
        });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }
}
