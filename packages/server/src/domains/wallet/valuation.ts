import type { EngineReader } from '../../engineHost/engineHost.js';

const btc = 'BTC';
const bridge = 'USDT';

/**
 * An amount of `asset` valued in BTC minor units at the last trade prices: directly through
 * `ASSET_BTC` or `BTC_ASSET`, else through USDT. Rounds down; 0 when no price exists.
 */
export function valueInBtc(
  engine: EngineReader,
  asset: string,
  amount: bigint,
  decimalsOf: (asset: string) => number | undefined,
): bigint {
  if (amount === 0n) return 0n;
  if (asset === btc) return amount;
  const direct = convert(engine, asset, btc, amount, decimalsOf);
  if (direct !== null) return direct;
  const inBridge = asset === bridge ? amount : convert(engine, asset, bridge, amount, decimalsOf);
  if (inBridge === null) return 0n;
  return convert(engine, bridge, btc, inBridge, decimalsOf) ?? 0n;
}

/** `amount` of `from` in minor units of `to`, or null when neither market has traded. */
function convert(
  engine: EngineReader,
  from: string,
  to: string,
  amount: bigint,
  decimalsOf: (asset: string) => number | undefined,
): bigint | null {
  const fromDecimals = decimalsOf(from);
  const toDecimals = decimalsOf(to);
  if (fromDecimals === undefined || toDecimals === undefined) return null;
  // A price is minor units of money per one whole unit of stock.
  const sellPrice = lastPriceOf(engine, `${from}_${to}`);
  if (sellPrice > 0n) return (amount * sellPrice) / 10n ** BigInt(fromDecimals);
  const buyPrice = lastPriceOf(engine, `${to}_${from}`);
  if (buyPrice > 0n) return (amount * 10n ** BigInt(toDecimals)) / buyPrice;
  return null;
}

function lastPriceOf(engine: EngineReader, market: string): bigint {
  return engine.markets().some((candidate) => candidate.name === market)
    ? engine.lastPrice(market)
    : 0n;
}
