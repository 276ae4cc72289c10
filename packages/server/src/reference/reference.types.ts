/** Reference data as the rest of the server sees it: amounts in minor units as bigint. */

export interface Asset {
  ticker: string;
  name: string;
  decimals: number;
  isFiat: boolean;
  isStable: boolean;
  sortOrder: number;
  depositEnabled: boolean;
  withdrawEnabled: boolean;
}

export interface Network {
  code: string;
  name: string;
  nativeTicker: string;
  usesMemo: boolean;
  confirmations: number;
  sortOrder: number;
}

export interface AssetNetwork {
  assetTicker: string;
  networkCode: string;
  contractAddress: string | null;
  /** Minor units of the asset. */
  withdrawFee: bigint;
  withdrawMin: bigint;
  sortOrder: number;
}

export interface Market {
  /** `STOCK_MONEY`. */
  name: string;
  stock: string;
  money: string;
  /** Price step in money minor units per whole stock unit. */
  tickSize: bigint;
  /** Amount step in stock minor units. */
  lotSize: bigint;
  /** Smallest order amount in stock minor units. */
  minAmount: bigint;
  pricePrecision: number;
  amountPrecision: number;
  makerFeePpm: number;
  takerFeePpm: number;
  marginEnabled: boolean;
  enabled: boolean;
  sortOrder: number;
}

export interface ReferenceData {
  /** In list order. */
  assets: Asset[];
  networks: Network[];
  /** By asset, then the asset's network order (the first is the default network). */
  assetNetworks: AssetNetwork[];
  /** In list order. */
  markets: Market[];
  defaultPair: string;
  lttPair: string;
  platformTicker: string;
  fiatTickers: string[];
  stableTickers: string[];
}

export interface DemoUser {
  id: number;
  email: string;
  /** What the engine host credits to the user at first start, in minor units. */
  funding: { ticker: string; amount: bigint }[];
}
