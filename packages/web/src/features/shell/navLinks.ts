/** The links of the header menus; the desktop menus and the mobile menu share them. */
export interface NavLink {
  /** An English path, localised where it is rendered. */
  to: string;
  /** Key of its label under `nav.`. */
  label: string;
}

export const tradeLinks: readonly NavLink[] = [
  { to: '/exchange', label: 'fastExchange' },
  { to: '/trade_classic', label: 'classicSpot' },
  { to: '/trade', label: 'proSpot' },
];

export const lttLinks: readonly NavLink[] = [
  { to: '/ltt-token', label: 'lttToken' },
  { to: '/staking-pool', label: 'stakingPool' },
  { to: '/burning-stage', label: 'burningStage' },
  { to: '/ieo-list', label: 'ieoList' },
  { to: '/trading-competition', label: 'competition' },
];

export const walletLinks: readonly NavLink[] = [
  { to: '/user/wallet-list', label: 'balance' },
  { to: '/user/wallet-margin', label: 'margin' },
  { to: '/history/deposit', label: 'depositHistory' },
  { to: '/history/withdraw', label: 'withdrawHistory' },
  { to: '/history/codes', label: 'codesHistory' },
];

export const ordersLinks: readonly NavLink[] = [
  { to: '/history/active', label: 'activeOrders' },
  { to: '/history/orders', label: 'orderHistory' },
  { to: '/history/trades', label: 'tradeHistory' },
];

export const userLinks: readonly NavLink[] = [
  { to: '/user/profile', label: 'profile' },
  { to: '/user/security-main', label: 'security' },
  { to: '/user/api', label: 'apiManager' },
  { to: '/user/settings', label: 'settings' },
];

/** What the mobile menu adds to the header's menus (SPEC.md §2). */
export const mobileExtraLinks: readonly NavLink[] = [
  { to: '/referrals', label: 'referrals' },
  { to: '/user/buy-crypto', label: 'buyCrypto' },
  { to: '/user/support', label: 'support' },
];

/** The Buy LTT link opens the classic screen on the LTT pair. */
export function buyLttPath(lttPair: string | undefined): string {
  return `/trade_classic/${lttPair || 'LTT_USDT'}`;
}
