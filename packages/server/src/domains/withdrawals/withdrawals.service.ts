import {
  amountToDecimal,
  cancellableWithdrawalStatuses,
  type WithdrawalBody,
  type WithdrawalFeeJson,
  type WithdrawalHistoryQuery,
  type WithdrawalJson,
  type WithdrawLimitJson,
  withdrawalStatus,
} from '@lattice/contracts';
import type { Db } from '../../db/database.js';
import type { EngineHost } from '../../engineHost/engineHost.js';
import { errorFromRejection } from '../../engineHost/rejections.js';
import { AppError, validationError } from '../../http/errors.js';
import type { Asset, AssetNetwork, ReferenceData } from '../../reference/reference.types.js';
import { hashToken, randomToken } from '../auth/tokens.js';
import type { UserRow } from '../auth/users.repo.js';
import type { ChainRegistry } from '../chains/chainRegistry.js';
import { cachedReferenceData } from '../markets/referenceCache.js';
import { amountOf } from '../orders/orders.service.js';
import { isWhitelisted, whitelistModeOn } from '../whitelist/whitelist.repo.js';
import { isAddressOf } from './addressFormat.js';
import { flexFeeRule, ppmToPercent, type WithdrawalFee, withdrawalFeeOf } from './feeRules.js';
import {
  assertWithinLimits,
  type LimitContext,
  limitsOf,
  limitUse,
  usdTicker,
  usdValueOf,
} from './withdrawalLimits.js';
import { holdIdOf, type WithdrawalProcessor } from './withdrawalProcessor.js';
import { presentWithdrawal } from './withdrawals.present.js';
import {
  deleteWithdrawal,
  findWithdrawal,
  insertWithdrawal,
  transitionWithdrawal,
  userWithdrawals,
  withdrawalByConfirmToken,
} from './withdrawals.repo.js';

const overBalance = 'Amount should not be greater than your balance!';
const s = withdrawalStatus;

/** Withdrawals above this value in USD wait for an operator (API.md "Wallet"). */
export const reviewThresholdUsdDefault = 10_000n;
/** How long the e-mail link of an API-key withdrawal stays valid. */
export const confirmLinkTtlMs = 24 * 3600_000;
/** The web page the e-mail link opens: it shows the withdrawal and confirms only on a click. */
export const confirmPagePath = '/withdrawal-confirm';

/** The one answer for an unknown, used or expired link: it tells nothing about which. */
function linkInvalid(): AppError {
  return new AppError('auth_link_invalid', { errors: { token: ['Link is not valid'] } });
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

/** How the request was confirmed: a session's 2FA code, or a program's API key. */
export interface RequestOrigin {
  viaApiKey: boolean;
}

export interface WithdrawalsOptions {
  now?: () => number;
  reviewThresholdUsd?: bigint;
  /** Mails the link that confirms an API-key withdrawal (status 5). */
  sendConfirmation?: (user: UserRow, link: string, record: WithdrawalJson) => Promise<void>;
  publicUrl?: string;
}

/**
 * Crypto withdrawals: fee quotes, requests, confirmation, operator review, cancel and history.
 * A request holds `amount + fee` on the main balance (the engine refuses a hold it cannot
 * cover, so concurrent requests never overdraw); the processor sends it once confirmed.
 */
export class WithdrawalsService {
  // The limit check and the insert that makes a withdrawal count run one at a time per user.
  private readonly userQueues = new Map<number, Promise<unknown>>();
  private readonly now: () => number;
  private readonly reviewThresholdUsd: bigint;

  constructor(
    private readonly host: EngineHost,
    private readonly db: Db,
    private readonly chains: ChainRegistry,
    private readonly processor: WithdrawalProcessor,
    private readonly options: WithdrawalsOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.reviewThresholdUsd = options.reviewThresholdUsd ?? reviewThresholdUsdDefault;
  }

  /** The fee and total of withdrawing `amount` (whole units) on a network. */
  async quote(ticker: string, amountText: string, network?: string): Promise<WithdrawalFeeJson> {
    const route = await this.route(ticker, network);
    const { decimals } = route.asset;
    const decimal = (value: bigint) => amountToDecimal(value, decimals);
    const amount = amountOf('amount', amountText, decimals);
    const rule = await flexFeeRule(this.db, ticker, route.network.networkCode);
    const fee = withdrawalFeeOf(route.network.withdrawFee, rule, amount);
    return {
      ticker,
      network: route.network.networkCode,
      amount: decimal(amount),
      fee: decimal(fee.total),
      total: decimal(amount + fee.total),
      minAmount: decimal(route.network.withdrawMin),
      fixedFee: decimal(fee.fixed),
      flexFee: decimal(fee.flex),
      flexPercent: ppmToPercent(rule?.percentPpm ?? 0),
      flexMin: decimal(rule?.min ?? 0n),
      flexMax: decimal(rule?.max ?? 0n),
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
    const rule = await flexFeeRule(this.db, ticker, route.network.networkCode);
    const fee: WithdrawalFee = withdrawalFeeOf(route.network.withdrawFee, rule, amount);
    return { route, amount, fee: fee.total, address: body.address, memo };
  }

  /**
   * Checks the limits, records the request, holds the funds, then: an API-key request waits
   * for its e-mail link (5), one above the threshold for an operator (6), any other is sent
   * at once (10 → 11 → 3 or 4). A refused hold leaves no record.
   */
  async execute(
    user: UserRow,
    plan: PlannedWithdrawal,
    origin: RequestOrigin = { viaApiKey: false },
  ): Promise<WithdrawalJson> {
    const { route, amount, fee } = plan;
    const userId = user.id;
    const id = await this.oneAtATime(userId, async () => {
      const context = await this.limitContext();
      await this.assertWhitelisted(userId, plan);
      await assertWithinLimits(context, user, route.asset.ticker, amount);
      const usdDecimals = context.reference.assets.find((a) => a.ticker === usdTicker)?.decimals;
      const threshold = this.reviewThresholdUsd * 10n ** BigInt(usdDecimals ?? 6);
      return insertWithdrawal(this.db, {
        userId,
        asset: route.asset.ticker,
        network: route.network.networkCode,
        address: plan.address,
        memo: plan.memo,
        amount,
        fee,
        status: s.freezed,
        needsReview: usdValueOf(context, route.asset.ticker, amount) > threshold,
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
    if (origin.viaApiKey) {
      await this.awaitEmailConfirmation(user, id, route.asset.decimals);
    } else {
      await this.confirmed(id, s.freezed);
    }
    return this.present(id, route.asset.decimals);
  }

  /**
   * The e-mail link's token, posted by the page's Confirm button: 5 → 6 when the amount needs
   * an operator, else 10 and sent. An expired link stops the withdrawal (13) and releases the
   * funds.
   */
  async confirmByToken(token: string): Promise<WithdrawalJson> {
    const row = await withdrawalByConfirmToken(this.db, hashToken(token));
    if (row === undefined || Number(row.status) !== s.unconfirmedByUser) throw linkInvalid();
    const id = Number(row.id);
    if (Number(row.confirm_expires_at ?? 0) <= this.now()) {
      await this.processor.expire(id);
      throw linkInvalid();
    }
    if (!(await this.confirmed(id, s.unconfirmedByUser))) throw linkInvalid();
    return this.present(id, await this.decimalsOf(row.asset));
  }

  /**
   * The withdrawal the e-mail link's token would confirm, for the page that asks for the
   * click. Reads only: an expired link is left to the sweep (or the confirming POST) to stop.
   */
  async confirmationByToken(token: string): Promise<WithdrawalJson> {
    const row = await withdrawalByConfirmToken(this.db, hashToken(token));
    if (
      row === undefined ||
      Number(row.status) !== s.unconfirmedByUser ||
      Number(row.confirm_expires_at ?? 0) <= this.now()
    ) {
      throw linkInvalid();
    }
    return presentWithdrawal(row, await this.decimalsOf(row.asset), this.explorerLink);
  }

  /** Cancels the user's own withdrawal while it is 5, 6 or 10: status 12, funds released. */
  async cancel(userId: number, id: number): Promise<WithdrawalJson> {
    const row = await findWithdrawal(this.db, id);
    if (row === undefined || Number(row.user_id) !== userId) {
      throw new AppError('withdrawal_not_found');
    }
    const change = { status: s.unsuccessful, reason: 'Canceled by user', confirm: null };
    const moved = await transitionWithdrawal(
      this.db,
      id,
      cancellableWithdrawalStatuses,
      change,
      this.now(),
      userId,
    );
    if (!moved) {
      throw validationError({ id: ['This withdrawal can no longer be canceled'] });
    }
    await this.processor.release(id);
    return this.present(id, await this.decimalsOf(row.asset));
  }

  /** An operator's decision on a withdrawal in status 6: approve (10, sent) or reject (12). */
  async review(id: number, approve: boolean): Promise<WithdrawalJson> {
    const row = await findWithdrawal(this.db, id);
    if (row === undefined) throw new AppError('withdrawal_not_found');
    const from = [s.unconfirmedByAdmin];
    const notWaiting = validationError({ id: ['This withdrawal is not waiting for review'] });
    if (approve) {
      const change = { status: s.confirmedByUser };
      if (!(await transitionWithdrawal(this.db, id, from, change, this.now()))) throw notWaiting;
      await this.processor.process(id);
    } else {
      const change = { status: s.unsuccessful, reason: 'Rejected by the operator' };
      if (!(await transitionWithdrawal(this.db, id, from, change, this.now()))) throw notWaiting;
      await this.processor.release(id);
    }
    return this.present(id, await this.decimalsOf(row.asset));
  }

  /** A page of the user's withdrawals with the fields of SPEC.md §3. */
  async history(userId: number, query: WithdrawalHistoryQuery) {
    const reference = await cachedReferenceData(this.db);
    const { rows, total } = await userWithdrawals(this.db, userId, query);
    const records = rows.map((row) =>
      presentWithdrawal(row, decimalsIn(reference, row.asset), this.explorerLink),
    );
    return { records, total, offset: query.offset, limit: query.limit };
  }

  /** The user's level and what the windows leave (`withdraw_kyc_limit`). */
  async limitSummary(user: UserRow): Promise<WithdrawLimitJson> {
    const context = await this.limitContext();
    const use = await limitUse(context, user);
    const limits = limitsOf(user);
    const decimalsOf = (ticker: string) => decimalsIn(context.reference, ticker);
    const usd = (value: bigint) => amountToDecimal(value, decimalsOf(usdTicker));
    const btc = (value: bigint) => amountToDecimal(value, decimalsOf('BTC'));
    const left = (max: bigint, used: bigint) => (max > used ? max - used : 0n);
    const twoFactorEnabled = user.totp_secret !== null;
    const kycVerified = user.kyc_status === 'verified';
    return {
      level: !twoFactorEnabled ? 'none' : kycVerified ? 'verified' : 'basic',
      twoFactorEnabled,
      kycVerified,
      usdPerDay: limits.usdPerDay.toString(),
      usdLeftToday: twoFactorEnabled ? usd(left(use.usdMax, use.usdUsed)) : '0',
      btcPerWeek: limits.btcPerWeek === null ? null : limits.btcPerWeek.toString(),
      btcLeftThisWeek:
        use.btcMax === null ? null : twoFactorEnabled ? btc(left(use.btcMax, use.btcUsed)) : '0',
      reviewAboveUsd: this.reviewThresholdUsd.toString(),
    };
  }

  async limitContext(): Promise<LimitContext> {
    const reference = await cachedReferenceData(this.db);
    return { db: this.db, engine: this.host.engine, reference, now: this.now() };
  }

  /** Held and confirmed by the user: to the operator when above the threshold, else sent. */
  private async confirmed(id: number, from: number): Promise<boolean> {
    const row = await findWithdrawal(this.db, id);
    if (row === undefined) return false;
    const next = Number(row.needs_review) === 1 ? s.unconfirmedByAdmin : s.confirmedByUser;
    const change = { status: next, confirm: null };
    if (!(await transitionWithdrawal(this.db, id, [from], change, this.now()))) return false;
    if (next === s.confirmedByUser) await this.processor.process(id);
    return true;
  }

  /** Status 5: the funds stay held until the user confirms on the page the mailed link opens. */
  private async awaitEmailConfirmation(user: UserRow, id: number, decimals: number) {
    const token = randomToken();
    const confirm = { tokenHash: hashToken(token), expiresAt: this.now() + confirmLinkTtlMs };
    const change = { status: s.unconfirmedByUser, confirm };
    await transitionWithdrawal(this.db, id, [s.freezed], change, this.now());
    const base = this.options.publicUrl ?? '';
    const link = `${base}${confirmPagePath}?token=${encodeURIComponent(token)}`;
    await this.options.sendConfirmation?.(user, link, await this.present(id, decimals));
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

  private readonly explorerLink = (network: string, txHash: string): string | null =>
    this.chains.adapter(network)?.explorerLink(txHash) ?? null;

  private async decimalsOf(ticker: string): Promise<number> {
    return decimalsIn(await cachedReferenceData(this.db), ticker);
  }

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

function decimalsIn(reference: ReferenceData, ticker: string): number {
  return reference.assets.find((asset) => asset.ticker === ticker)?.decimals ?? 8;
}
