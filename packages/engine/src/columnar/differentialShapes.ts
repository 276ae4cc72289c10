// For the differential test of the two cores: the exchange it runs on (users, the assets and
// what each user is funded with, the shapes of the markets and the ranges their generated prices
// and amounts span) and the names its queries look at. Fixed data only, shared by the
// generators, the harness and the tests, so that each of them reads the same market.
import type { MarketAddCommand } from '../types.js';

export type Plain = Record<string, unknown>;
type MarketSpec = Omit<MarketAddCommand, 'time'>;

export const USERS = [1, 2, 3, 4];
export const DECIMALS: Record<string, number> = { BTC: 8, USDT: 6, ETH: 8, LTT: 8 };
/** What each user deposits of each asset; four fifths of it goes on to the trade account. */
export const FUNDS: [string, bigint][] = [
  ['BTC', 10n * 10n ** 8n],
  ['USDT', 1_000_000n * 10n ** 6n],
  ['ETH', 100n * 10n ** 8n],
  ['LTT', 1000n * 10n ** 8n],
];

export interface Shape {
  spec: MarketSpec;
  /** Generated prices are center + k × step (step a multiple of the tick). */
  center: bigint;
  step: bigint;
  /** Generated amounts are 1 to maxLots lots. */
  maxLots: number;
  /** The largest money total of a generated market buy by total. */
  maxTotal: bigint;
}

/** A market.add of `name` (STOCK_MONEY), its other fields in the order of the command. */
export function spec(
  name: string,
  tickSize: bigint,
  lotSize: bigint,
  minAmount: bigint,
  pricePrecision: number,
  amountPrecision: number,
  makerFeePpm: number,
  takerFeePpm: number,
): MarketSpec {
  const [stock = '', money = ''] = name.split('_');
  return {
    type: 'market.add',
    name,
    stock,
    money,
    tickSize,
    lotSize,
    minAmount,
    pricePrecision,
    amountPrecision,
    makerFeePpm,
    takerFeePpm,
  };
}

/** The first three are set up; the rest only appear through a generated market.add. */
export const SHAPES: Shape[] = [
  // Tick = price step; a lot of five amount steps, so an amount can be off the lot.
  {
    spec: spec('BTC_USDT', 10_000n, 50_000n, 100_000n, 2, 4, 1000, 2000),
    center: 30_000_000_000n,
    step: 5_000_000n,
    maxLots: 400,
    maxTotal: 10_000_000_000n,
  },
  // A tick of five price steps (a price can be off the tick); no maker fee.
  {
    spec: spec('ETH_USDT', 50_000n, 100_000n, 1_000_000n, 2, 3, 0, 1500),
    center: 2_000_000_000n,
    step: 500_000n,
    maxLots: 3000,
    maxTotal: 5_000_000_000n,
  },
  // Lots of one minor unit: deal values are fractions of a satoshi, so rounding is exercised.
  {
    spec: spec('ETH_BTC', 1000n, 1n, 1000n, 5, 8, 2500, 500),
    center: 6_500_000n,
    step: 2000n,
    maxLots: 200_000_000,
    maxTotal: 20_000_000n,
  },
  {
    spec: spec('LTT_USDT', 100n, 100_000_000n, 100_000_000n, 4, 0, 1000, 2000),
    center: 2_000_000n,
    step: 300n,
    maxLots: 50,
    maxTotal: 100_000_000n,
  },
  {
    spec: spec('LTT_BTC', 1n, 1_000_000n, 0n, 8, 2, 3000, 3000),
    center: 7000n,
    step: 13n,
    maxLots: 5000,
    maxTotal: 1_000_000n,
  },
  // Priced in LTT: a fee in LTT there is half the money fee, with no price to convert at.
  {
    spec: spec('BTC_LTT', 1_000_000n, 10_000n, 0n, 2, 4, 1000, 2000),
    center: 30_000_000_000n,
    step: 50_000_000n,
    maxLots: 1000,
    maxTotal: 5_000_000_000n,
  },
  // Fees far past any real market's (a maker pays 99.9999%, a taker a quarter), priced in LTT:
  // the engine's sums of a fee and its price must hold at every rate it accepts.
  {
    spec: spec('ETH_LTT', 1_000_000n, 1_000_000n, 0n, 2, 2, 999_999, 250_000),
    center: 2_000_000_000n,
    step: 10_000_000n,
    maxLots: 2000,
    maxTotal: 100_000_000_000n,
  },
];
export const SET_UP_SHAPES = SHAPES.slice(0, 3);
export const LATER_SHAPES = SHAPES.slice(3);
export const MARKET_NAMES = [
  ...SHAPES.map((m) => m.spec.name),
  'DOGE_USDT',
  'WEI_USDT',
  'NOPE_USDT',
];
export const MERGE_STEPS = new Map(SHAPES.map((m) => [m.spec.name, m.step * 3n]));

/** Users the queries look at: the funded ones, two that may be added later, an unknown one. */
export const QUERY_USERS = [1, 2, 3, 4, 5, 6, 99];
export const PURPOSES = ['staking', 'loan', 'none'];

export const priceStep = (m: Shape) =>
  10n ** BigInt((DECIMALS[m.spec.money] ?? 0) - m.spec.pricePrecision);
export const amountStep = (m: Shape) =>
  10n ** BigInt((DECIMALS[m.spec.stock] ?? 0) - m.spec.amountPrecision);
