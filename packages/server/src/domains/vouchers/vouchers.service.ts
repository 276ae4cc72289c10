import { randomBytes } from 'node:crypto';
import type { VoucherCreateBody, VoucherJson, VoucherListQuery } from '@lattice/contracts';
import type { Db } from '../../db/database.js';
import type { EngineHost } from '../../engineHost/engineHost.js';
import { errorFromRejection } from '../../engineHost/rejections.js';
import { AppError, validationError } from '../../http/errors.js';
import { loadReferenceData } from '../../reference/reference.repo.js';
import type { ReferenceData } from '../../reference/reference.types.js';
import type { UserRow } from '../auth/users.repo.js';
import { amountOf } from '../orders/orders.service.js';
import { presentVoucher } from './vouchers.present.js';
import {
  findVoucher,
  finishVoucher,
  insertVoucher,
  listVouchers,
  reopenVoucher,
  type VoucherListKind,
} from './vouchers.repo.js';

const FREEZE_PREFIX = 'voucher:';

/** The engine business id of a code's freeze: repeats of a command on it are no-ops. */
function freezeIdOf(code: string): string {
  return `${FREEZE_PREFIX}${code}`;
}

/**
 * Transfer codes: creating one freezes the amount on the creator's main balance; another user
 * redeeming it settles the freeze to their main balance; the creator cancelling it unfreezes.
 * The row's conditional status update decides which of concurrent redeemers wins, so the
 * engine sees at most one settle per code.
 */
export class VouchersService {
  private reference: ReferenceData | null = null;

  constructor(
    private readonly host: EngineHost,
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Freezes the amount and records a new code; refused without approved KYC. */
  async create(user: UserRow, body: VoucherCreateBody): Promise<VoucherJson> {
    if (user.kyc_status !== 'verified') throw new AppError('voucher_kyc_required');
    const decimals = await this.decimalsOf(body.ticker);
    const amount = amountOf('amount', body.amount, decimals);
    if (amount === 0n) throw validationError({ amount: ['Must be greater than zero'] });
    await this.host.ensureUser(user.id);
    const code = randomBytes(16).toString('hex').toUpperCase();
    const frozen = await this.host.submit({
      type: 'balance.freeze',
      userId: user.id,
      asset: body.ticker,
      account: 'main',
      amount,
      businessId: freezeIdOf(code),
      purpose: 'voucher',
    });
    if (!frozen.ok) {
      if (frozen.code === 'insufficient_balance') {
        throw validationError({ amount: ['Amount should not be greater than your balance!'] });
      }
      throw errorFromRejection(frozen, { asset: 'ticker' });
    }
    const now = this.now();
    try {
      await insertVoucher(this.db, { code, userId: user.id, asset: body.ticker, amount, now });
    } catch (error) {
      await this.host.submit({ type: 'balance.unfreeze', businessId: freezeIdOf(code) });
      throw error;
    }
    const row = await findVoucher(this.db, code);
    if (!row) throw new Error(`voucher ${code} vanished after insert`);
    return presentVoucher(row, decimals, user.id);
  }

  /** Credits the code's amount to `userId`'s main balance, once; the creator cannot redeem. */
  async apply(userId: number, code: string): Promise<VoucherJson> {
    const claimed = await finishVoucher(
      this.db,
      code,
      { status: 'activated', activatedBy: userId },
      this.now(),
    );
    if (!claimed) throw new AppError('voucher_activation_failed');
    await this.host.ensureUser(userId);
    const settled = await this.host.submit({
      type: 'balance.settleFreeze',
      businessId: freezeIdOf(code),
      toUserId: userId,
    });
    if (!settled.ok) {
      await reopenVoucher(this.db, code);
      throw new Error(`settling voucher ${code} refused: ${settled.code}`);
    }
    return this.presentByCode(code, userId);
  }

  /** Cancels the caller's active code and gives the amount back; another's code is a 404. */
  async cancel(userId: number, code: string): Promise<VoucherJson> {
    const cancelled = await finishVoucher(
      this.db,
      code,
      { status: 'canceled', ownerId: userId },
      this.now(),
    );
    if (!cancelled) {
      const row = await findVoucher(this.db, code);
      if (!row || Number(row.user_id) !== userId) throw new AppError('voucher_not_found');
      throw new AppError('voucher_not_active');
    }
    const released = await this.host.submit({
      type: 'balance.unfreeze',
      businessId: freezeIdOf(code),
    });
    if (!released.ok) throw new Error(`unfreezing voucher ${code} refused: ${released.code}`);
    return this.presentByCode(code, userId);
  }

  /**
   * On start-up, before requests: each open code freeze is matched with its row, so that a
   * stop between two steps never strands funds. No row (stopped between the freeze and the
   * insert; the creator got no code): unfreeze. `activated` (stopped before the settle):
   * settle to the redeemer. `canceled` (stopped before the unfreeze): unfreeze. `active`:
   * nothing to do. Returns how many freezes it finished.
   */
  async recover(): Promise<number> {
    let finished = 0;
    for (const freeze of this.host.engine.openFreezes('voucher')) {
      if (!freeze.businessId.startsWith(FREEZE_PREFIX)) continue;
      const row = await findVoucher(this.db, freeze.businessId.slice(FREEZE_PREFIX.length));
      if (row?.status === 'active') continue;
      const command =
        row?.status === 'activated' && row.activated_by !== null
          ? {
              type: 'balance.settleFreeze' as const,
              businessId: freeze.businessId,
              toUserId: Number(row.activated_by),
            }
          : { type: 'balance.unfreeze' as const, businessId: freeze.businessId };
      const result = await this.host.submit(command);
      if (!result.ok) throw new Error(`${command.type} ${freeze.businessId}: ${result.code}`);
      finished += 1;
    }
    return finished;
  }

  /** A page of the caller's codes (`my`: active ones they created; `history`: all theirs). */
  async list(userId: number, kind: VoucherListKind, query: VoucherListQuery) {
    const { rows, total } = await listVouchers(this.db, userId, kind, query);
    const reference = await this.referenceData();
    const records = rows.map((row) => {
      const decimals = reference.assets.find((a) => a.ticker === row.asset)?.decimals ?? 8;
      return presentVoucher(row, decimals, userId);
    });
    return { records, total, offset: query.offset, limit: query.limit };
  }

  private async presentByCode(code: string, viewerId: number): Promise<VoucherJson> {
    const row = await findVoucher(this.db, code);
    if (!row) throw new Error(`voucher ${code} vanished`);
    return presentVoucher(row, await this.decimalsOf(row.asset), viewerId);
  }

  private async decimalsOf(ticker: string): Promise<number> {
    const reference = await this.referenceData();
    const asset = reference.assets.find((candidate) => candidate.ticker === ticker);
    if (!asset) throw validationError({ ticker: ['Unknown currency'] });
    return asset.decimals;
  }

  // Reference data changes only with a new version or an operator's edit: read once.
  private async referenceData(): Promise<ReferenceData> {
    this.reference ??= await loadReferenceData(this.db);
    return this.reference;
  }
}
