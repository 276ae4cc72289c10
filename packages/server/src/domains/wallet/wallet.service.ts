import { randomUUID } from 'node:crypto';
import { amountToDecimal } from '@lattice/contracts';
import type { Db } from '../../db/database.js';
import type { ClientKey, EngineHost } from '../../engineHost/engineHost.js';
import { errorFromRejection } from '../../engineHost/rejections.js';
import { validationError } from '../../http/errors.js';
import { loadReferenceData } from '../../reference/reference.repo.js';
import type { ReferenceData } from '../../reference/reference.types.js';
import { amountOf } from '../orders/orders.service.js';
import { valueInBtc } from './valuation.js';
import { fullBalanceOf, presentWalletBalance, type WalletBalanceJson } from './wallet.present.js';
import { userBalances } from './wallet.repo.js';
import type { TransferBody } from './wallet.schemas.js';

/** Balances and transfers between a user's own accounts. */
export class WalletService {
  private reference: ReferenceData | null = null;

  constructor(
    private readonly host: EngineHost,
    private readonly db: Db,
  ) {}

  /** Every asset, zero balances included, from the committed projection. */
  async balances(userId: number): Promise<WalletBalanceJson[]> {
    const reference = await this.referenceData();
    const stored = await userBalances(this.db, userId);
    const decimalsOf = (ticker: string) =>
      reference.assets.find((asset) => asset.ticker === ticker)?.decimals;
    return reference.assets.map((asset, index) => {
      const accounts = stored.get(asset.ticker) ?? {};
      const inBtc = valueInBtc(this.host.engine, asset.ticker, fullBalanceOf(accounts), decimalsOf);
      return presentWalletBalance(asset, index, reference, accounts, inBtc);
    });
  }

  /** Moves funds between main and trade; more than available is a 422 on `amount`. */
  async transfer(
    userId: number,
    body: TransferBody,
    clientKey: ClientKey | undefined,
  ): Promise<{ mainBalance: string; tradeAvailable: string }> {
    const reference = await this.referenceData();
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

  // Reference data changes only with a new version or an operator's edit: read once.
  private async referenceData(): Promise<ReferenceData> {
    this.reference ??= await loadReferenceData(this.db);
    return this.reference;
  }
}
