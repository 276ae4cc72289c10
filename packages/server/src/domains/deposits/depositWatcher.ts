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
/**
 * A scan that finds nothing for users moves its cursor in memory only, and writes it once it is
 * this many blocks ahead of the stored one (or at close). Each write is a commit on the main
 * connection, which waits on the event loop for the engine host's writer to release the lock:
 * one per network per block held the event loop 7 to 250 ms per block under a steady order
 * flow. A restart rescans from the stored cursor, which is harmless: a transfer is recorded once
 * by (network, txHash, output).
 */
const cursorWriteEveryBlocks = 120;

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
  /** Per network: the height scanned to, and the height stored in `chain_scan_cursors`. */
  private readonly cursors = new Map<string, { scanned: number; stored: number }>();

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
    const cursor = await this.cursorOf(network);
    for (let from = cursor.scanned; from < tip; ) {
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
      if (seen.length > 0 || to - cursor.stored >= cursorWriteEveryBlocks) {
        await recordSeenTransfers(this.db, network, seen, to, this.now());
        cursor.stored = to;
      }
      cursor.scanned = to;
      from = to;
    }
    await this.creditMatured(network, tip);
  }

  /** Writes the cursors that moved since they were stored (at close, after the last scan). */
  saveCursors(): Promise<void> {
    const run = this.queue.then(async () => {
      for (const [network, cursor] of this.cursors) {
        if (cursor.scanned === cursor.stored) continue;
        await recordSeenTransfers(this.db, network, [], cursor.scanned, this.now());
        cursor.stored = cursor.scanned;
      }
    });
    this.queue = run;
    return run;
  }

  private async cursorOf(network: string): Promise<{ scanned: number; stored: number }> {
    let cursor = this.cursors.get(network);
    if (cursor === undefined) {
      const stored = await scanCursor(this.db, network);
      cursor = { scanned: stored, stored };
      this.cursors.set(network, cursor);
    }
    return cursor;
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
