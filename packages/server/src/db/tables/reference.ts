/**
 * Reference data: assets, the networks they move on, and the markets between them. Amount
 * columns are integer minor units as strings (see `db/amount.ts`); flags are 0 or 1.
 */
export interface ReferenceTables {
  assets: AssetsTable;
  networks: NetworksTable;
  asset_networks: AssetNetworksTable;
  markets: MarketsTable;
}

export interface AssetsTable {
  /** `BTC`, `USDT`, `EUR`: upper-case, unique. */
  ticker: string;
  name: string;
  /** Minor units per whole unit are 10^decimals. */
  decimals: number;
  is_fiat: number;
  is_stable: number;
  /** Lower first: lists of assets follow this order. */
  sort_order: number;
  deposit_enabled: number;
  withdraw_enabled: number;
  created_at: number;
}

export interface NetworksTable {
  /** `bitcoin`, `bsc`, `bnb_beacon`, `ethereum`, `cryptounit`, `tron`. */
  code: string;
  name: string;
  native_ticker: string;
  /** 1 when deposits to a shared address are told apart by a memo. */
  uses_memo: number;
  /** Blocks after which a deposit is credited. */
  confirmations: number;
  sort_order: number;
  created_at: number;
}

/** An asset as it moves on one network (a coin on its chain or a token on a host chain). */
export interface AssetNetworksTable {
  asset_ticker: string;
  network_code: string;
  /** Null for the network's own coin. */
  contract_address: string | null;
  withdraw_fee: string;
  withdraw_min: string;
  /** The asset's first network (lowest) is its default. */
  sort_order: number;
}

export interface MarketsTable {
  /** `STOCK_MONEY`, e.g. `BTC_USDT`. */
  name: string;
  stock: string;
  money: string;
  /** Price step, in money minor units per whole stock unit. */
  tick_size: string;
  /** Amount step, in stock minor units. */
  lot_size: string;
  /** Smallest order amount, in stock minor units. */
  min_amount: string;
  price_precision: number;
  amount_precision: number;
  /** Fee rates in parts per million of the traded total (1000 = 0.1%). */
  maker_fee_ppm: number;
  taker_fee_ppm: number;
  margin_enabled: number;
  enabled: number;
  sort_order: number;
  created_at: number;
}
