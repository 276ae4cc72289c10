import {
  amountToDecimal,
  type MarketListItemJson,
  type MarketListJson,
  pairTabOrder,
  pairTabs,
  pairTabsOf,
} from '@lattice/contracts';
import type { Market, ReferenceData } from '../../reference/reference.types.js';
import { changePercent } from '../marketData/marketData.present.js';
import type { DayStats } from '../marketData/rollingDay.js';
import { currencyImagePath } from './currencyImage.js';

/** Fee rates in parts per million as a fraction: 2000 → "0.002". */
export function feeRate(ppm: number): string {
  return amountToDecimal(BigInt(ppm), 6);
}

const topListSize = 4;

/** The market list of API.md with the Pair fields of SPEC.md §3 and the pair-list tabs. */
export function presentMarketList(
  reference: ReferenceData,
  statsOf: (market: string) => DayStats,
  favorites: ReadonlySet<string>,
): MarketListJson {
  const decimals = new Map(reference.assets.map((asset) => [asset.ticker, asset.decimals]));
  const markets = reference.markets.filter((market) => market.enabled);
  const items = markets.map((market) =>
    presentItem(market, reference, decimals, statsOf(market.name), favorites.has(market.name)),
  );
  const tabs = pairTabs.map((name) => ({
    name,
    order: pairTabOrder[name],
    pairs:
      name === 'FAVORITE'
        ? markets.filter((m) => favorites.has(m.name)).map((m) => m.name)
        : items.filter((item) => item.tabs.includes(name)).map((item) => item.name),
  }));
  return {
    items,
    currenciesMap: Object.fromEntries(reference.assets.map((asset) => [asset.ticker, asset.name])),
    currenciesImages: Object.fromEntries(
      reference.assets.map((asset) => [asset.ticker, currencyImagePath(asset.ticker)]),
    ),
    currenciesTopList: reference.assets.slice(0, topListSize).map((asset) => asset.ticker),
    tabs,
  };
}

function presentItem(
  market: Market,
  reference: ReferenceData,
  decimals: ReadonlyMap<string, number>,
  stats: DayStats,
  favorite: boolean,
): MarketListItemJson {
  const stock = (value: bigint) => amountToDecimal(value, decimals.get(market.stock) ?? 8);
  const money = (value: bigint) => amountToDecimal(value, decimals.get(market.money) ?? 8);
  return {
    name: market.name,
    stock: market.stock,
    money: market.money,
    min_amount: stock(market.minAmount),
    tick_size: money(market.tickSize),
    lot_size: stock(market.lotSize),
    price_precision: market.pricePrecision,
    amount_precision: market.amountPrecision,
    maker_fee: feeRate(market.makerFeePpm),
    taker_fee: feeRate(market.takerFeePpm),
    tabs: pairTabsOf(market.money, reference),
    favorite,
    isDefi: false,
    margin: market.marginEnabled,
    market: {
      volume: stock(stats.volume),
      volumeInMoney: money(stats.deal),
      price: money(stats.last),
      change: changePercent(stats.open, stats.last),
    },
  };
}
