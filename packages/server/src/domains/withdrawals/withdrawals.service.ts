import {
  amountToDecimal,
  type WithdrawalBody,
  type WithdrawalFeeJson,
  type WithdrawalHistoryQuery,
  type WithdrawalJson,
  withdrawalStatus,
} from '@lattice/contracts';
import type { Db } from '../../db/database.js';
import type { EngineHost } from '../../engineHost/engineHost.js';
import { errorFromRejection } from '../../engineHost/rejections.js';
import { AppError, validationError } from '../../http/errors.js';
import type { Asset, AssetNetwork, ReferenceData } from '../../reference/reference.types.js';
import type { UserRow } from '../auth/users.repo.js';
import type { ChainRegistry } from '../chains/chainRegistry.js';
import { cachedReferenceData } from '../markets/referenceCache.js';
import { amountOf } from '../orders/orders.service.js';
import { isWhitelisted, whitelistModeOn } from '../whitelist/whitelist.repo.js';
import { isAddressOf } from './addressFormat.js';
import { assertWithinLimits } from './withdrawalLimits.js';
import { presentWithdrawal } from './withdrawals.present.js';
import {
  deleteWithdrawal,
  findWithdrawal,
  insertWithdrawal,
  updateWithdrawal,
  userWithdrawals,
} from './withdrawals.repo.js';

const overBalance = 'Amount should not be greater than your balance!';

/** The engine business id of a withdrawal's hold. */
function holdIdOf(id: number): string {
  return `withdrawal:${id}`;
}

interface Route {
  asset: Asset;
  network: AssetNetwork;
  usesMemo: boolean;
}

/** A checked request, ready to hold: amounts in minor units. */
export interface PlannedWithdrawal {
  route: Route;
  amount: bigint;
  fee: bigint;
  address: string;
  memo: string;
}

/**
 * Crypto withdrawals: fee quotes, requests and history. A request holds `amount + fee` on the
 * main balance (the engine refuses a hold it cannot cover, so concurrent requests never
 * overdraw), sends through the network's chain adapter, then completes the hold with the fee
 * to the exchange, or releases it when the send fails.
 */
export class WithdrawalsService {
  // The limit check and the insert that makes a withdrawal count run one at a time per user.
  private readonly userQueues = new Map<number, Promise<unknown>>();

  constructor(
    private readonly host: EngineHost,
    private readonly db: Db,
    private readonly chains: ChainRegistry,
    private readonly now: () => number = Date.now,
  ) {}

  /** The fee and total of withdrawing `amount` (whole units) on a network. */
  async quote(ticker: string, amountText: string, network?: string): Promise<WithdrawalFeeJson> {
    const route = await this.route(ticker, network);
    const { decimals } = route.asset;
    const amount = amountOf('amount', amountText, decimals);
    const fee = route.network.withdrawFee;
    return {
      ticker,
      network: route.network.networkCode,
      amount: amountToDecimal(amount, decimals),
      fee: amountToDecimal(fee, decimals),
      total: amountToDecimal(amount + fee, decimals),
      minAmount: amountToDecimal(route.network.withdrawMin, decimals),
    };
  }

  /** Checks every field of a request (SPEC.md §5); nothing is held yet. */
  async plan(ticker: string, body: WithdrawalBody): Promise<PlannedWithdrawal> {
    const route = await this.route(ticker, body.network);
    const { decimals } = route.asset;
    const amount = amountOf('amount', body.amount, decimals);
    if (amount === 0n) throw validationError({ amount: ['Must be greater than zero'] });
    if (amount < route.network.withdrawMin) {
      const min = amountToDecimal(route.network.withdrawMin, decimals);
      throw validationError({ amount: [`Min value ${min}`] });
    }
    if (!isAddressOf(route.network.networkCode, body.address)) {
      throw validationError({ address: ['Address is not valid for this network'] });
    }
    const memo = body.memo ?? '';
    if (route.usesMemo && memo === '') throw validationError({ memo: ['Field is required'] });
    return { route, amount, fee: route.network.withdrawFee, address: body.address, memo };
  }

  /**
   * Checks the limits, holds the funds, sends them and records the outcome; a refused hold
   * leaves no record.
   */
  async execute(user: UserRow, plan: PlannedWithdrawal): Promise<WithdrawalJson> {
    const { route, amount, fee } = plan;
    const userId = user.id;
    const id = await this.oneAtATime(userId, async () => {
      const reference = await cachedReferenceData(this.db);
      const context = { db: this.db, engine: this.host.engine, reference, now: this.now() };
      await this.assertWhitelisted(userId, plan);
      await assertWithinLimits(context, user, route.asset.ticker, amount);
      return insertWithdrawal(this.db, {
        userId,
        asset: route.asset.ticker,
        network: route.network.networkCode,
        address: plan.address,
        memo: plan.memo,
        amount,
        fee,
        status: withdrawalStatus.confirmedByUser,
        now: this.now(),
      });
    });
    await this.host.ensureUser(userId);
    const held = await this.host.submit({
      type: 'balance.withdrawHold',
      userId,
      asset: route.asset.ticker,
      amount: amount + fee,
      businessId: holdIdOf(id),
    });
    if (!held.ok) {
      await deleteWithdrawal(this.db, id);
      if (held.code === 'insufficient_balance') throw validationError({ amount: [overBalance] });
      throw errorFromRejection(held, { asset: 'ticker' });
    }
    await updateWithdrawal(this.db, id, { status: withdrawalStatus.inProcess }, this.now());
    await this.send(id, plan);
    return this.present(id, route.asset.decimals);
  }

  /** A page of the user's withdrawals with the fields of SPEC.md §3. */
  async history(userId: number, query: WithdrawalHistoryQuery) {
    const reference = await cachedReferenceData(this.db);
    const { rows, total } = await userWithdrawals(this.db, userId, query);
    const records = rows.map((row) =>
      presentWithdrawal(row, decimalsOf(reference, row.asset), this.explorerLink),
    );
    return { records, total, offset: query.offset, limit: query.limit };
  }

  /** In whitelist mode only a saved address (same coin, address and memo) is accepted. */
  private async assertWhitelisted(userId: number, plan: PlannedWithdrawal): Promise<void> {
    if (!(await whitelistModeOn(this.db, userId))) return;
    const target = {
      userId,
      asset: plan.route.asset.ticker,
      address: plan.address,
      memo: plan.memo,
    };
    if (!(await isWhitelisted(this.db, target))) {
      throw validationError({ address: ['This address is not in your whitelist'] });
    }
  }

  private async oneAtATime<T>(userId: number, task: () => Promise<T>): Promise<T> {
    const previous = this.userQueues.get(userId) ?? Promise.resolve();
    const run = previous.then(task, task);
    const settled = run.catch(() => undefined);
    this.userQueues.set(userId, settled);
    try {
      return await run;
    } finally {
      if (this.userQueues.get(userId) === settled) this.userQueues.delete(userId);
    }
  }

  private async send(id: number, plan: PlannedWithdrawal): Promise<void> {
    const adapter = this.chains.adapter(plan.route.network.networkCode);
    try {
      if (adapter === undefined) throw new Error('no adapter for the network');
      const { txHash } = await adapter.send({
        asset: plan.route.asset.ticker,
        address: plan.address,
        memo: plan.memo === '' ? null : plan.memo,
        amount: plan.amount,
      });
      await updateWithdrawal(
        this.db,
        id,
        { status: withdrawalStatus.successful, txHash },
        this.now(),
      );
      await this.finishHold({
        type: 'balance.withdrawComplete',
        businessId: holdIdOf(id),
        fee: plan.fee,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message.slice(0, 200) : 'send failed';
      await updateWithdrawal(this.db, id, { status: withdrawalStatus.failed, reason }, this.now());
      await this.finishHold({ type: 'balance.withdrawRelease', businessId: holdIdOf(id) });
    }
  }

  private async finishHold(
    command:
      | { type: 'balance.withdrawComplete'; businessId: string; fee: bigint }
      | { type: 'balance.withdrawRelease'; businessId: string },
  ): Promise<void> {
    const result = await this.host.submit(command);
    // NOTE: a hold this service placed must exist; a refusal here is a bug, not bad input.
    if (!result.ok) throw new Error(`${command.type} ${command.businessId}: ${result.code}`);
  }

  private readonly explorerLink = (network: string, txHash: string): string | null =>
    this.chains.adapter(network)?.explorerLink(txHash) ?? null;

  private async present(id: number, decimals: number): Promise<WithdrawalJson> {
    const row = await findWithdrawal(this.db, id);
    if (!row) throw new Error(`withdrawal ${id} vanished`);
    return presentWithdrawal(row, decimals, this.explorerLink);
  }

  /** The asset and network a withdrawal leaves on; refuses what cannot be withdrawn. */
  private async route(ticker: string, network: string | undefined): Promise<Route> {
    const reference = await cachedReferenceData(this.db);
    const asset = reference.assets.find((candidate) => candidate.ticker === ticker);
    if (asset === undefined) throw new AppError('currency_not_found');
    if (!asset.withdrawEnabled) {
      throw new AppError('withdrawal_disabled', {
        message: `Deposit/Withdrawal for ${ticker} is disabled`,
      });
    }
    const rows = reference.assetNetworks.filter((row) => row.assetTicker === ticker);
    const chosen =
      network === undefined ? rows[0] : rows.find((row) => row.networkCode === network);
    if (chosen === undefined) throw new AppError('network_not_found');
    const usesMemo =
      reference.networks.find((candidate) => candidate.code === chosen.networkCode)?.usesMemo ??
      false;
    return { asset, network: chosen, usesMemo };
  }
}

function decimalsOf(reference: ReferenceData, ticker: string): number {
  return reference.assets.find((asset) => asset.ticker === ticker)?.decimals ?? 8;
}
