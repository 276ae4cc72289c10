import { amountFromDecimal } from '@lattice/contracts';
import type { MarketView } from '@lattice/engine';

/**
 * What the demo liquidity treats as each asset's value in US dollars: the centre its prices
 * wander around. Assets not listed are worth one dollar.
 */
export const usdValues: Readonly<Record<string, string>> = {
  BTC: '60000',
  ETH: '3000',
  USDT: '1',
  LTT: '0.05',
  USDC: '1',
  BNB: '550',
  TRX: '0.12',
  PLC: '0.8',
  USDN: '1',
  CNB: '0.002',
  EUR: '1.08',
  USD: '1',
};

const usdDecimals = 8;

/** An asset's dollar value in 10^-8 dollars. */
export function usdValueOf(asset: string): bigint {
  return amountFromDecimal(usdValues[asset] ?? '1', usdDecimals);
}

/**
 * The reference price of a market in money minor units per whole stock unit, on the tick
 * (rounded down, at least one tick).
 */
export function referencePrice(market: MarketView, moneyDecimals: number): bigint {
  const raw = (usdValueOf(market.stock) * 10n ** BigInt(moneyDecimals)) / usdValueOf(market.money);
  const onTick = raw - (raw % market.tickSize);
  return onTick > market.tickSize ? onTick : market.tickSize;
}

/**
 * A stock amount worth about `usd` dollars (in 10^-8 dollars), on the lot and at least the
 * market's minimum.
 */
export function amountWorth(market: MarketView, stockDecimals: number, usd: bigint): bigint {
  const raw = (usd * 10n ** BigInt(stockDecimals)) / usdValueOf(market.stock);
  const onLot = raw - (raw % market.lotSize);
  return onLot > market.minAmount ? onLot : market.minAmount;
}
