import { randomUUID } from 'node:crypto';
import { amountFromDb, amountToDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import {
  type ChainAdapter,
  type ChainAddress,
  confirmationsOf,
  type IncomingTransfer,
  type OutgoingTransfer,
} from './chainAdapter.js';
import { simulatedAddress, simulatedTxHash } from './simulatedAddresses.js';

/** A transfer as the simulated chain's explorer shows it. */
export interface SimulatedTransaction {
  network: string;
  txHash: string;
  blockHeight: number;
  tip: number;
  outputs: {
    output: number;
    asset: string;
    address: string;
    memo: string | null;
    amount: bigint;
  }[];
}

/**
 * A network simulated in the database: a block every `blockIntervalMs` (as a real chain keeps
 * producing them, also while the exchange is stopped) plus blocks mined on demand, and a
 * transfer is included in the block after the one current when it was sent. Addresses and
 * memos are derived from the user and an index, so they are the same on every start. State
 * lives in `sim_chain_blocks` and `sim_chain_transfers`, so a restart keeps it.
 *
 * NOTE: the height is computed, not written per block: `sim_chain_blocks` holds a height and the
 * time it was reached, and the blocks since then are the whole intervals elapsed. A write per
 * block was a commit on the main connection every interval, which waits on the event loop
 * whenever the engine host's writer holds the SQLite write lock.
 */
export class SimulatedChain implements ChainAdapter {
  constructor(
    private readonly db: Db,
    readonly network: string,
    readonly usesMemo: boolean,
    private readonly explorerBaseUrl: string,
    /** A block this often; 0 (as in tests) only on demand. */
    readonly blockIntervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async newAddress(userId: number, index: number): Promise<ChainAddress> {
    return simulatedAddress(this.network, this.usesMemo, userId, index);
  }

  async blockHeight(): Promise<number> {
    const row = await this.db
      .selectFrom('sim_chain_blocks')
      .select(['height', 'time'])
      .where('network', '=', this.network)
      .executeTakeFirst();
    return row
      ? heightAt(Number(row.height), Number(row.time), this.blockIntervalMs, this.now())
      : 0;
  }

  /** Adds `blocks` blocks; returns the new height. */
  async mine(blocks: number): Promise<number> {
    const heights = await mineSimulatedChains(this.db, [this], blocks, this.now());
    return heights.get(this.network) ?? 0;
  }

  async incomingTransfers(fromHeight: number, toHeight: number): Promise<IncomingTransfer[]> {
    const rows = await this.db
      .selectFrom('sim_chain_transfers')
      .selectAll()
      .where('network', '=', this.network)
      .where('block_height', '>', fromHeight)
      .where('block_height', '<=', toHeight)
      .orderBy('block_height')
      .orderBy('created_at')
      .execute();
    return rows.map((row) => ({
      txHash: row.tx_hash,
      output: row.output,
      asset: row.asset,
      address: row.address,
      memo: row.memo === '' ? null : row.memo,
      amount: amountFromDb(row.amount),
      blockHeight: Number(row.block_height),
    }));
  }

  /** An outside wallet sends funds to `address`: what the development helper does. */
  receive(transfer: OutgoingTransfer): Promise<{ txHash: string }> {
    return this.record(transfer, simulatedTxHash(this.network, randomUUID()));
  }

  /**
   * The transaction hash derives from the reference and (network, hash, output) is the
   * table's key, so a repeated send records nothing and answers the same hash.
   */
  send(transfer: OutgoingTransfer & { reference: string }): Promise<{ txHash: string }> {
    return this.record(transfer, simulatedTxHash(this.network, `send:${transfer.reference}`));
  }

  async confirmations(txHash: string): Promise<number> {
    const tx = await this.transaction(txHash);
    return tx === undefined ? 0 : confirmationsOf(tx.blockHeight, tx.tip);
  }

  explorerLink(txHash: string): string {
    return `${this.explorerBaseUrl}/api/chain/${this.network}/tx/${txHash}`;
  }

  /** A transaction with its outputs, or undefined when the chain never saw it. */
  async transaction(txHash: string): Promise<SimulatedTransaction | undefined> {
    const [rows, tip] = await Promise.all([
      this.db
        .selectFrom('sim_chain_transfers')
        .selectAll()
        .where('network', '=', this.network)
        .where('tx_hash', '=', txHash)
        .orderBy('output')
        .execute(),
      this.blockHeight(),
    ]);
    const first = rows[0];
    if (first === undefined) return undefined;
    return {
      network: this.network,
      txHash,
      blockHeight: Number(first.block_height),
      tip,
      outputs: rows.map((row) => ({
        output: row.output,
        asset: row.asset,
        address: row.address,
        memo: row.memo === '' ? null : row.memo,
        amount: amountFromDb(row.amount),
      })),
    };
  }

  private async record(transfer: OutgoingTransfer, txHash: string): Promise<{ txHash: string }> {
    // The transfer is in the next block: it has no confirmation until that block exists.
    const height = (await this.blockHeight()) + 1;
    await this.db
      .insertInto('sim_chain_transfers')
      .values({
        network: this.network,
        tx_hash: txHash,
        output: 0,
        asset: transfer.asset,
        address: transfer.address,
        memo: transfer.memo ?? '',
        amount: amountToDb(transfer.amount),
        block_height: height,
        created_at: this.now(),
      })
      .onConflict((oc) => oc.columns(['network', 'tx_hash', 'output']).doNothing())
      .execute();
    return { txHash };
  }
}

/** Starts the chains of `networks` that have no height yet at 0, counting blocks from `time`. */
export async function startSimulatedChains(
  db: Db,
  networks: readonly string[],
  time: number,
): Promise<void> {
  if (networks.length === 0) return;
  await db
    .insertInto('sim_chain_blocks')
    .values(networks.map((network) => ({ network, height: 0, time })))
    .onConflict((oc) => oc.column('network').doNothing())
    .execute();
}

/** The height of a chain that stood at `height` at `since`, with a block every `intervalMs`. */
export function heightAt(height: number, since: number, intervalMs: number, now: number): number {
  return intervalMs > 0 && now > since ? height + Math.floor((now - since) / intervalMs) : height;
}

/**
 * Adds `blocks` blocks to each of `chains` (a chain without a row starts at 0) in one
 * transaction, and counts its timed blocks from now on; returns the new heights.
 */
export async function mineSimulatedChains(
  db: Db,
  chains: readonly SimulatedChain[],
  blocks: number,
  time: number,
): Promise<Map<string, number>> {
  const heights = new Map<string, number>();
  if (chains.length === 0) return heights;
  await db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('sim_chain_blocks')
      .select(['network', 'height', 'time'])
      .where(
        'network',
        'in',
        chains.map((chain) => chain.network),
      )
      .execute();
    const stored = new Map(rows.map((row) => [row.network, row]));
    const values = chains.map((chain) => {
      const row = stored.get(chain.network);
      const current = row
        ? heightAt(Number(row.height), Number(row.time), chain.blockIntervalMs, time)
        : 0;
      heights.set(chain.network, current + blocks);
      return { network: chain.network, height: current + blocks, time };
    });
    await trx
      .insertInto('sim_chain_blocks')
      .values(values)
      .onConflict((oc) =>
        oc.column('network').doUpdateSet((eb) => ({
          height: eb.ref('excluded.height'),
          time: eb.ref('excluded.time'),
        })),
      )
      .execute();
  });
  return heights;
}
