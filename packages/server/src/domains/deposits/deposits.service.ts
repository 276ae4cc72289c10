import {
  amountToDecimal,
  type DepositAddressJson,
  type DepositHistoryQuery,
  type DepositJson,
  type Page,
} from '@lattice/contracts';
import { amountFromDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import type { Asset, ReferenceData } from '../../reference/reference.types.js';
import { confirmationsOf } from '../chains/chainAdapter.js';
import type { ChainRegistry } from '../chains/chainRegistry.js';
import { addressesPerNetworkMax } from '../chains/simulatedAddresses.js';
import { cachedReferenceData } from '../markets/referenceCache.js';
import { addressUsed, insertAddress, userAddresses, userDeposits } from './deposits.repo.js';

/** The spec's notice when a user asks for another address too early (SPEC.md §8). */
const addressNotUsed = 'You cant create new address while your current is not used.';

/** Deposit addresses, deposit history and block heights for the wallet. */
export class DepositsService {
  constructor(
    private readonly db: Db,
    private readonly chains: ChainRegistry,
    private readonly now: () => number = Date.now,
  ) {}

  /** The user's current address for the asset on a network (its first one by default). */
  async address(userId: number, ticker: string, network?: string): Promise<DepositAddressJson> {
    const { code } = await this.depositNetwork(ticker, network);
    const [current] = await userAddresses(this.db, userId, code);
    if (current !== undefined) return presentAddress(current.address, current.memo, code);
    return this.createAddress(userId, code, 0);
  }

  /** A further address, once the current one has received a deposit. */
  async newAddress(userId: number, ticker: string, network?: string): Promise<DepositAddressJson> {
    const { code } = await this.depositNetwork(ticker, network);
    const existing = await userAddresses(this.db, userId, code);
    const [current] = existing;
    if (current === undefined) return this.createAddress(userId, code, 0);
    if (
      !(await addressUsed(this.db, code, current.address, current.memo)) ||
      existing.length >= addressesPerNetworkMax
    ) {
      throw new AppError('validation_failed', {
        message: addressNotUsed,
        errors: { ticker: [addressNotUsed] },
      });
    }
    return this.createAddress(userId, code, existing.length);
  }

  /** The newest block of the asset's network. */
  async blockHeight(
    ticker: string,
    network?: string,
  ): Promise<{ network: string; height: number }> {
    const { code } = await this.depositNetwork(ticker, network, { evenIfDisabled: true });
    const adapter = this.chains.adapter(code);
    return { network: code, height: adapter ? await adapter.blockHeight() : 0 };
  }

  /** A page of the user's deposits (filters of `depositHistoryQuery`), with confirmations. */
  async history(userId: number, filter: DepositHistoryQuery): Promise<Page<DepositJson>> {
    const reference = await cachedReferenceData(this.db);
    const { rows, total } = await userDeposits(this.db, userId, filter);
    const tips = new Map<string, number>();
    for (const network of new Set(rows.map((row) => row.network))) {
      tips.set(network, (await this.chains.adapter(network)?.blockHeight()) ?? 0);
    }
    const records = rows.map((row): DepositJson => {
      const asset = reference.assets.find((candidate) => candidate.ticker === row.asset);
      const decimals = asset?.decimals ?? 8;
      const confirmations = confirmationsOf(Number(row.block_height), tips.get(row.network) ?? 0);
      return {
        id: row.id,
        ticker: row.asset,
        currency: asset?.name ?? row.asset,
        network: row.network,
        createdAt: Number(row.created_at) / 1000,
        amount: amountToDecimal(amountFromDb(row.amount), decimals),
        status: row.status,
        address: row.address,
        memo: row.memo === '' ? null : row.memo,
        reason: null,
        txHash: row.tx_hash,
        fee: '0',
        confirmations: Math.min(confirmations, row.confirmations_required),
        confirmationsRequired: row.confirmations_required,
        explorerLink: this.chains.adapter(row.network)?.explorerLink(row.tx_hash) ?? '',
      };
    });
    return { records, total, offset: filter.offset, limit: filter.limit };
  }

  private async createAddress(userId: number, network: string, index: number) {
    const adapter = this.chains.adapter(network);
    if (adapter === undefined) throw new AppError('network_not_found');
    const { address, memo } = await adapter.newAddress(userId, index);
    await insertAddress(this.db, { userId, network, address, memo, now: this.now() });
    return presentAddress(address, memo ?? '', network);
  }

  /** The asset and the network it is deposited on; refuses what cannot be deposited. */
  private async depositNetwork(
    ticker: string,
    network: string | undefined,
    options: { evenIfDisabled?: boolean } = {},
  ): Promise<{ asset: Asset; code: string }> {
    const reference: ReferenceData = await cachedReferenceData(this.db);
    const asset = reference.assets.find((candidate) => candidate.ticker === ticker);
    if (asset === undefined) throw new AppError('currency_not_found');
    if (!asset.depositEnabled && !options.evenIfDisabled) {
      throw new AppError('deposit_disabled', {
        message: `Deposit/Withdrawal for ${ticker} is disabled`,
      });
    }
    const networks = reference.assetNetworks.filter((row) => row.assetTicker === ticker);
    const chosen =
      network === undefined ? networks[0] : networks.find((row) => row.networkCode === network);
    if (chosen === undefined) throw new AppError('network_not_found');
    return { asset, code: chosen.networkCode };
  }
}

function presentAddress(address: string, memo: string, network: string): DepositAddressJson {
  return { address, memo: memo === '' ? null : memo, network };
}
