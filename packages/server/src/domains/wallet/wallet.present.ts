import { amountToDecimal } from '@lattice/contracts';
import type { AccountKind, BalancePair } from '@lattice/engine';
import type { Asset, ReferenceData } from '../../reference/reference.types.js';
import { currencyImagePath } from '../markets/currencyImage.js';

/** One row of `GET /api/v3/profile/balance` (SPEC.md §3 "Wallet balance"). */
export interface WalletBalanceJson {
  currencyId: number;
  label: string;
  image: string;
  ticker: string;
  action: string | null;
  isDefi: boolean;
  isErc20: boolean;
  isFiat: boolean;
  isInt: boolean;
  isMemo: boolean;
  isTop: boolean;
  isDepositOn: boolean;
  isWithdrawOn: boolean;
  fullBalance: string;
  fullBalanceBtc: string;
  mainBalance: string;
  tradeAvailable: string;
  tradeBalance: string;
  tradeFreeze: string;
  withdrawalLimit: string | null;
  isUnverifiedAbleWithdraw: boolean;
  tradePairs: string[];
}

const zero: BalancePair = { available: 0n, frozen: 0n };
// The assets the spec lists first (SPEC.md §9) are the "top" ones.
const topCount = 4;

/** The full balance of an asset: every account, available and frozen. */
export function fullBalanceOf(accounts: Partial<Record<AccountKind, BalancePair>>): bigint {
  let sum = 0n;
  for (const pair of Object.values(accounts)) sum += pair.available + pair.frozen;
  return sum;
}

/**
 * Presents one asset's balances. Fields the exchange has no notion of (DeFi listing, an
 * action) have neutral values.
 */
export function presentWalletBalance(
  asset: Asset,
  index: number,
  reference: ReferenceData,
  accounts: Partial<Record<AccountKind, BalancePair>>,
  fullBalanceBtc: bigint,
  /** What the withdrawal limits still allow, in minor units; null when they do not bind. */
  withdrawalLimit: bigint | null,
): WalletBalanceJson {
  const decimal = (value: bigint) => amountToDecimal(value, asset.decimals);
  const main = accounts.main ?? zero;
  const trade = accounts.trade ?? zero;
  const networks = reference.assetNetworks.filter((row) => row.assetTicker === asset.ticker);
  const usesMemo = networks.some((row) =>
    reference.networks.some((network) => network.code === row.networkCode && network.usesMemo),
  );
  return {
    currencyId: index + 1,
    label: asset.name,
    image: currencyImagePath(asset.ticker),
    ticker: asset.ticker,
    action: null,
    isDefi: false,
    isErc20: networks.some((row) => row.networkCode === 'ethereum' && row.contractAddress !== null),
    isFiat: asset.isFiat,
    isInt: asset.decimals === 0,
    isMemo: usesMemo,
    isTop: index < topCount,
    isDepositOn: asset.depositEnabled,
    isWithdrawOn: asset.withdrawEnabled,
    fullBalance: decimal(fullBalanceOf(accounts)),
    fullBalanceBtc: amountToDecimal(fullBalanceBtc, 8),
    mainBalance: decimal(main.available),
    tradeAvailable: decimal(trade.available),
    tradeBalance: decimal(trade.available + trade.frozen),
    tradeFreeze: decimal(trade.frozen),
    withdrawalLimit: withdrawalLimit === null ? null : decimal(withdrawalLimit),
    isUnverifiedAbleWithdraw: false,
    tradePairs: reference.markets
      .filter(
        (market) =>
          market.enabled && (market.stock === asset.ticker || market.money === asset.ticker),
      )
      .map((market) => market.name),
  };
}
