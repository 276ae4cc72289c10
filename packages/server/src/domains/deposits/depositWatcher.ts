import { amountFromDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import type { EngineHost } from '../../engineHost/engineHost.js';
import type { HostLogger } from '../../engineHost/hostLogger.js';
import { confirmationsOf } from '../chains/chainAdapter.js';
import type { ChainRegistry } from '../chains/chainRegistry.js';
import {
  addressOwners,
  markCredited,
  maturedDeposits,
  recordSeenTransfers,
  scanCursor,
} from './deposits.repo.js';

/** Blocks read per scan step at most, so a long outage is caught up in bounded pieces. */
const blocksPerStepMax = 500;

/** The business id of a deposit's credit: the engine applies it once, whatever repeats it. */
export function depositBusinessId(network: string, txHash: string, output: number): string {
  return `deposit:${network}:${txHash}:${output}`;
}

/**
 * Follows each network: records transfers to users' deposit addresses as pending deposits, and
 * credits each one to the user's main balance through the engine host once it has the
 * network's confirmations. Scans run one at a time.
 */
export class DepositWatcher {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly host: EngineHost,
    private readonly chains: ChainRegistry,
    /** Confirmations each network requires. */
    private readonly required: ReadonlyMap<string, number>,
    private readonly logger: HostLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Scans the networks after the scans already asked for. */
  scan(networks: readonly string[]): Promise<void> {
    const run = this.queue.then(async () => {
      for (const network of networks) {
        try {
          await this.scanNetwork(network);
        } catch (error) {
          this.logger.error({ err: error, network }, 'deposit scan failed');
        }
      }
    });
    this.queue = run;
    return run;
  }

  private async scanNetwork(network: string): Promise<void> {
    const adapter = this.chains.adapter(network);
    const required = this.required.get(network);
    if (adapter === undefined || required === undefined) return;
    const tip = await adapter.blockHeight();
    for (let from = await scanCursor(this.db, network); from < tip; ) {
      const to = Math.min(tip, from + blocksPerStepMax);
      const transfers = await adapter.incomingTransfers(from, to);
      const owners = await addressOwners(
        this.db,
        network,
        transfers.map((transfer) => transfer.address),
      );
      const seen = transfers.flatMap((transfer) => {
        const userId = owners.get(`${transfer.address}|${transfer.memo ?? ''}`);
        return userId === undefined ? [] : [{ transfer, userId, required }];
      });
      await recordSeenTransfers(this.db, network, seen, to, this.now());
      from = to;
    }
    await this.creditMatured(network, tip);
  }

  private async creditMatured(network: string, tip: number): Promise<void> {
    for (const deposit of await maturedDeposits(this.db, network, tip)) {
      if (confirmationsOf(Number(deposit.block_height), tip) < deposit.confirmations_required) {
        continue;
      }
      const userId = Number(deposit.user_id);
      await this.host.ensureUser(userId);
      const result = await this.host.submit({
        type: 'balance.deposit',
        userId,
        asset: deposit.asset,
        amount: amountFromDb(deposit.amount),
        businessId: depositBusinessId(network, deposit.tx_hash, deposit.output),
      });
      if (!result.ok) {
        this.logger.error(
          { deposit: deposit.id, code: result.code, reason: result.message },
          'deposit credit refused by the engine',
        );
        continue;
      }
      await markCredited(this.db, deposit.id, this.now());
    }
  }
}
