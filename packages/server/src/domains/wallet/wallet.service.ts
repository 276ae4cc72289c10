import { randomUUID } from 'node:crypto';
import { amountToDecimal } from '@lattice/contracts';
import type { Db } from '../../db/database.js';
import type { ClientKey, EngineHost } from '../../engineHost/engineHost.js';
import { errorFromRejection } from '../../engineHost/rejections.js';
import { AppError, validationError } from '../../http/errors.js';
import type { Asset } from '../../reference/reference.types.js';
import type { UserRow } from '../auth/users.repo.js';
import { cachedReferenceData } from '../markets/referenceCache.js';
import { amountOf } from '../orders/orders.service.js';
import { amountLeftOf, type LimitContext, limitUse } from '../withdrawals/withdrawalLimits.js';
import { valueInBtc } from './valuation.js';
import { fullBalanceOf, presentWalletBalance, type WalletBalanceJson } from './wallet.present.js';
import { userBalances } from './wallet.repo.js';
import type { TransferBody } from './wallet.schemas.js';

/** Balances and transfers between a user's own accounts. */
export class WalletService {
  constructor(
    private readonly host: EngineHost,
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Every asset, zero balances included, from the committed projection, each with its full
   * balance valued in BTC at the last prices and what the withdrawal limits still allow.
   */
  async balances(user: UserRow): Promise<WalletBalanceJson[]> {
    return this.present(user, () => true);
  }

  /** One asset's row (`GET /api/v3/profile/balance/{ticker}`); 404 for an unknown asset. */
  async balance(user: UserRow, ticker: string): Promise<WalletBalanceJson> {
    const [row] = await this.present(user, (asset) => asset.ticker === ticker);
    if (row === undefined) throw new AppError('currency_not_found');
    return row;
  }

  private async present(
    user: UserRow,
    wanted: (asset: Asset) => boolean,
  ): Promise<WalletBalanceJson[]> {
    const reference = await cachedReferenceData(this.db);
    const stored = await userBalances(this.db, user.id);
    const decimalsOf = (ticker: string) =>
      reference.assets.find((asset) => asset.ticker === ticker)?.decimals;
    const context: LimitContext = {
      db: this.db,
      engine: this.host.engine,
      reference,
      now: this.now(),
    };
    const use = await limitUse(context, user);
    const twoFactorEnabled = user.totp_secret !== null;
    const rows: WalletBalanceJson[] = [];
    reference.assets.forEach((asset, index) => {
      if (!wanted(asset)) return;
      const accounts = stored.get(asset.ticker) ?? {};
      const inBtc = valueInBtc(this.host.engine, asset.ticker, fullBalanceOf(accounts), decimalsOf);
      const left = amountLeftOf(context, use, asset.ticker, twoFactorEnabled);
      rows.push(presentWalletBalance(asset, index, reference, accounts, inBtc, left));
    });
    return rows;
  }

  /** Moves funds between main and trade; more than available is a 422 on `amount`. */
  async transfer(
    userId: number,
    body: TransferBody,
    clientKey: ClientKey | undefined,
  ): Promise<{ mainBalance: string; tradeAvailable: string }> {
    const reference = await cachedReferenceData(this.db);
    const asset = reference.assets.find((candidate) => candidate.ticker === body.ticker);
    if (!asset) throw validationError({ ticker: ['Unknown currency'] });
    const amount = amountOf('amount', body.amount, asset.decimals);
    if (amount === 0n) throw validationError({ amount: ['Must be greater than zero'] });
    await this.host.ensureUser(userId);
    // With a client key the business id is derived from it, so a repeat is one transfer.
    const businessId = clientKey
      ? `transfer:${userId}:${clientKey.key}`
      : `transfer:${randomUUID()}`;
    const result = await this.host.submit(
      {
        type: 'balance.transfer',
        userId,
        asset: asset.ticker,
        amount,
        from: body.from,
        to: body.to,
        businessId,
      },
      clientKey,
    );
    if (!result.ok) throw errorFromRejection(result, { asset: 'ticker' });
    if (result.result.kind !== 'balance') {
      throw new Error(`balance.transfer answered ${result.result.kind}, expected balances`);
    }
    const { main, trade } = result.result.balances;
    return {
      mainBalance: amountToDecimal(main.available, asset.decimals),
      tradeAvailable: amountToDecimal(trade.available, asset.decimals),
    };
  }
}
