/**
 * The exchange's reference data as first started: assets, networks and markets. Amounts are
 * decimal strings in whole units here, converted to minor units when seeded. Changing a row
 * here does not change a database already seeded (see `seedReferenceData`).
 */

/** The platform token: fee discounts, staking rewards, referral levels. */
export const platformTicker = 'LTT';
/** The pair the trade screens open on. */
export const defaultPair = 'BTC_USDT';
/** The platform token's pair (the header's Buy LTT link). */
export const lttPair = 'LTT_USDT';

/** Fee rates, parts per million of the traded total (SPEC.md §9: 0.1% maker, 0.2% taker). */
export const makerFeePpmDefault = 1_000;
export const takerFeePpmDefault = 2_000;

export interface AssetSeed {
  ticker: string;
  name: string;
  decimals: number;
  kind: 'crypto' | 'stable' | 'fiat';
}

// Order matters: lists of assets follow it (BTC, ETH, USDT, LTT first as in SPEC.md §9).
export const assetSeeds: readonly AssetSeed[] = [
  { ticker: 'BTC', name: 'Bitcoin', decimals: 8, kind: 'crypto' },
  { ticker: 'ETH', name: 'Ethereum', decimals: 8, kind: 'crypto' },
  { ticker: 'USDT', name: 'Tether USD', decimals: 6, kind: 'stable' },
  { ticker: 'LTT', name: 'Lattice Token', decimals: 8, kind: 'crypto' },
  { ticker: 'USDC', name: 'USD Coin', decimals: 6, kind: 'stable' },
  { ticker: 'BNB', name: 'BNB', decimals: 8, kind: 'crypto' },
  { ticker: 'TRX', name: 'TRON', decimals: 6, kind: 'crypto' },
  { ticker: 'PLC', name: 'Platin Coin', decimals: 8, kind: 'crypto' },
  { ticker: 'USDN', name: 'Neutrino USD', decimals: 6, kind: 'stable' },
  { ticker: 'CNB', name: 'Cryptounit', decimals: 8, kind: 'crypto' },
  { ticker: 'EUR', name: 'Euro', decimals: 2, kind: 'fiat' },
  { ticker: 'USD', name: 'US Dollar', decimals: 2, kind: 'fiat' },
];

export interface NetworkSeed {
  code: string;
  name: string;
  nativeTicker: string;
  usesMemo: boolean;
  confirmations: number;
}

export const networkSeeds: readonly NetworkSeed[] = [
  { code: 'bitcoin', name: 'Bitcoin', nativeTicker: 'BTC', usesMemo: false, confirmations: 2 },
  { code: 'bsc', name: 'BNB Smart Chain', nativeTicker: 'BNB', usesMemo: false, confirmations: 15 },
  {
    code: 'bnb_beacon',
    name: 'BNB Beacon Chain',
    nativeTicker: 'BNB',
    usesMemo: true,
    confirmations: 1,
  },
  { code: 'ethereum', name: 'Ethereum', nativeTicker: 'ETH', usesMemo: false, confirmations: 12 },
  { code: 'cryptounit', name: 'Cryptounit', nativeTicker: 'CNB', usesMemo: true, confirmations: 6 },
  { code: 'tron', name: 'Tron', nativeTicker: 'TRX', usesMemo: false, confirmations: 20 },
];

export interface AssetNetworkSeed {
  asset: string;
  network: string;
  /** Token contract on a host chain; absent for the chain's own coin. */
  contract?: string;
  withdrawFee: string;
  withdrawMin: string;
}

// An asset's first network here is its default network.
export const assetNetworkSeeds: readonly AssetNetworkSeed[] = [
  { asset: 'BTC', network: 'bitcoin', withdrawFee: '0.0002', withdrawMin: '0.001' },
  {
    asset: 'BTC',
    network: 'bsc',
    contract: token('btcb'),
    withdrawFee: '0.00001',
    withdrawMin: '0.0001',
  },
  { asset: 'ETH', network: 'ethereum', withdrawFee: '0.002', withdrawMin: '0.01' },
  {
    asset: 'ETH',
    network: 'bsc',
    contract: token('eth'),
    withdrawFee: '0.0002',
    withdrawMin: '0.005',
  },
  {
    asset: 'USDT',
    network: 'tron',
    contract: token('usdt-trc20'),
    withdrawFee: '1',
    withdrawMin: '10',
  },
  {
    asset: 'USDT',
    network: 'ethereum',
    contract: token('usdt-erc20'),
    withdrawFee: '5',
    withdrawMin: '20',
  },
  {
    asset: 'USDT',
    network: 'bsc',
    contract: token('usdt-bep20'),
    withdrawFee: '0.5',
    withdrawMin: '10',
  },
  { asset: 'LTT', network: 'bsc', contract: token('ltt'), withdrawFee: '5', withdrawMin: '50' },
  {
    asset: 'LTT',
    network: 'ethereum',
    contract: token('ltt-erc20'),
    withdrawFee: '50',
    withdrawMin: '200',
  },
  {
    asset: 'USDC',
    network: 'ethereum',
    contract: token('usdc'),
    withdrawFee: '5',
    withdrawMin: '20',
  },
  {
    asset: 'USDC',
    network: 'bsc',
    contract: token('usdc-bep20'),
    withdrawFee: '0.5',
    withdrawMin: '10',
  },
  { asset: 'BNB', network: 'bsc', withdrawFee: '0.0005', withdrawMin: '0.01' },
  { asset: 'BNB', network: 'bnb_beacon', withdrawFee: '0.0005', withdrawMin: '0.01' },
  { asset: 'TRX', network: 'tron', withdrawFee: '1', withdrawMin: '10' },
  { asset: 'PLC', network: 'bsc', contract: token('plc'), withdrawFee: '0.5', withdrawMin: '5' },
  {
    asset: 'USDN',
    network: 'ethereum',
    contract: token('usdn'),
    withdrawFee: '5',
    withdrawMin: '20',
  },
  { asset: 'CNB', network: 'cryptounit', withdrawFee: '1', withdrawMin: '10' },
];

/** A stable placeholder contract address for a token on the simulated chains. */
function token(label: string): string {
  return `sim:${label}`;
}

export interface MarketSeed {
  stock: string;
  money: string;
  /** Price step in money units. */
  tick: string;
  /** Amount step in stock units. */
  lot: string;
  /** Smallest order amount in stock units. */
  min: string;
  margin?: boolean;
}

// Grouped by pair-list tab; the order is the order of the market list.
export const marketSeeds: readonly MarketSeed[] = [
  // STABLE
  { stock: 'BTC', money: 'USDT', tick: '0.01', lot: '0.00001', min: '0.0001', margin: true },
  { stock: 'ETH', money: 'USDT', tick: '0.01', lot: '0.0001', min: '0.001', margin: true },
  { stock: 'LTT', money: 'USDT', tick: '0.0001', lot: '0.01', min: '1', margin: true },
  { stock: 'BNB', money: 'USDT', tick: '0.01', lot: '0.001', min: '0.01' },
  { stock: 'TRX', money: 'USDT', tick: '0.00001', lot: '0.1', min: '10' },
  { stock: 'PLC', money: 'USDT', tick: '0.0001', lot: '0.01', min: '1' },
  { stock: 'CNB', money: 'USDT', tick: '0.000001', lot: '1', min: '10' },
  { stock: 'USDC', money: 'USDT', tick: '0.0001', lot: '0.01', min: '1' },
  { stock: 'USDN', money: 'USDT', tick: '0.0001', lot: '0.01', min: '1' },
  { stock: 'BTC', money: 'USDC', tick: '0.01', lot: '0.00001', min: '0.0001' },
  { stock: 'ETH', money: 'USDC', tick: '0.01', lot: '0.0001', min: '0.001' },
  // BTC
  { stock: 'ETH', money: 'BTC', tick: '0.00001', lot: '0.0001', min: '0.001', margin: true },
  { stock: 'LTT', money: 'BTC', tick: '0.00000001', lot: '1', min: '10' },
  { stock: 'BNB', money: 'BTC', tick: '0.000001', lot: '0.001', min: '0.01' },
  { stock: 'TRX', money: 'BTC', tick: '0.00000001', lot: '1', min: '100' },
  // ETH
  { stock: 'LTT', money: 'ETH', tick: '0.00000001', lot: '1', min: '10' },
  { stock: 'BNB', money: 'ETH', tick: '0.00001', lot: '0.001', min: '0.01' },
  { stock: 'PLC', money: 'ETH', tick: '0.0000001', lot: '0.1', min: '1' },
  // USD and EUR (both FIAT)
  { stock: 'BTC', money: 'USD', tick: '0.01', lot: '0.00001', min: '0.0001' },
  { stock: 'ETH', money: 'USD', tick: '0.01', lot: '0.0001', min: '0.001' },
  { stock: 'USDT', money: 'USD', tick: '0.01', lot: '0.01', min: '1' },
  { stock: 'BTC', money: 'EUR', tick: '0.01', lot: '0.00001', min: '0.0001' },
  { stock: 'ETH', money: 'EUR', tick: '0.01', lot: '0.0001', min: '0.001' },
  { stock: 'USDT', money: 'EUR', tick: '0.01', lot: '0.01', min: '1' },
  // ALTS
  { stock: 'PLC', money: 'LTT', tick: '0.0001', lot: '0.01', min: '1' },
  { stock: 'CNB', money: 'LTT', tick: '0.000001', lot: '1', min: '10' },
  { stock: 'TRX', money: 'BNB', tick: '0.00000001', lot: '1', min: '100' },
];
