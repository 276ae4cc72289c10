/**
 * Every screen of SPEC.md §2, with who may open it and what the frame shows around it. The
 * router builds each entry twice: at its path (English) and under `/{lang}`. Plain data with
 * no imports, so the browser tests walk the same list.
 */

/** public: anyone; guest: signed-out only (signed-in → `/`); user: signed-in only (→ /login). */
export type Access = 'public' | 'guest' | 'user';

/** Extra rule a route follows before it renders (see `guards.ts`). */
export type RouteRule = 'exchange' | 'userExchange' | 'pair' | 'authAlias' | 'notFound';

/** The built screens, by name (see `screens.ts`); the others are placeholders. */
export type ScreenName =
  | 'home'
  | 'trade'
  | 'history'
  | 'notFound'
  | 'login'
  | 'register'
  | 'checkEmail'
  | 'verify'
  | 'deviceCode'
  | 'twoFactor'
  | 'forgotPassword'
  | 'resetPassword'
  | 'googleAuth'
  | 'profile'
  | 'security'
  | 'settings'
  | 'apiKeys'
  | 'walletList'
  | 'balanceDetail'
  | 'deposit'
  | 'withdraw'
  | 'addressManagement'
  | 'codes'
  | 'walletHistory'
  | 'withdrawalConfirm';

export interface RouteEntry {
  /** Path without the language prefix, relative (`user/profile`); '' is the front page. */
  path: string;
  /** Key under `routes.` of the screen's title. */
  title: string;
  access: Access;
  rule?: RouteRule;
  /** The screen; without one the route shows a placeholder naming the screen. */
  screen?: ScreenName;
  footer?: false;
  header?: false;
}

const publicPages: RouteEntry[] = [
  { path: '', title: 'home', access: 'public', screen: 'home' },
  { path: 'listing', title: 'listing', access: 'public' },
  { path: 'trade', title: 'trade', access: 'public', screen: 'trade', footer: false },
  {
    path: 'trade/:pair',
    title: 'trade',
    access: 'public',
    rule: 'pair',
    screen: 'trade',
    footer: false,
  },
  {
    path: 'trade_classic',
    title: 'tradeClassic',
    access: 'public',
    screen: 'trade',
    footer: false,
  },
  {
    path: 'trade_classic/:pair',
    title: 'tradeClassic',
    access: 'public',
    rule: 'pair',
    screen: 'trade',
    footer: false,
  },
  { path: 'codes', title: 'codes', access: 'public', screen: 'codes' },
  { path: 'ltt-token', title: 'lttToken', access: 'public' },
  { path: 'social-media', title: 'socialMedia', access: 'public' },
  { path: 'staking', title: 'staking', access: 'public' },
  { path: 'exchange', title: 'exchange', access: 'public', rule: 'exchange' },
  { path: 'fee-schedule', title: 'feeSchedule', access: 'public' },
  { path: 'partnership', title: 'partnership', access: 'public' },
  { path: 'faq', title: 'faq', access: 'public' },
  { path: 'successful', title: 'successful', access: 'public' },
  { path: 'unsuccessful', title: 'unsuccessful', access: 'public' },
  { path: 'burning-stage', title: 'burningStage', access: 'public' },
  { path: 'cnb-token', title: 'cnbToken', access: 'public' },
  { path: 'plc-token', title: 'plcToken', access: 'public' },
  { path: 'ieo-list', title: 'ieoList', access: 'public' },
  { path: 'ieo-list/:slug', title: 'ieoItem', access: 'public' },
  { path: 'ieo-list-request', title: 'ieoRequest', access: 'public' },
  { path: 'trading-competition', title: 'competition', access: 'public' },
  { path: 'trading-competition-plans/:ticker', title: 'competitionPlans', access: 'public' },
  { path: 'trading-competition-detail/:id', title: 'competitionDetail', access: 'public' },
  { path: 'trading-competition-history', title: 'competitionHistory', access: 'public' },
  { path: 'staking-pool', title: 'stakingPool', access: 'public' },
  { path: 'staking-pool/item/:ticker', title: 'stakingPoolItem', access: 'public' },
  { path: 'staking-pool/history', title: 'stakingPoolHistory', access: 'user' },
  { path: 'staking-pool/plan/:id', title: 'stakingPoolPlan', access: 'public' },
  { path: 'referrals', title: 'referrals', access: 'public', footer: false },
  { path: 'balance', title: 'balance', access: 'user' },
  { path: 'about-us', title: 'aboutUs', access: 'public' },
  { path: 'bug-bounty', title: 'bugBounty', access: 'public' },
  { path: 'privacy-policy', title: 'privacyPolicy', access: 'public' },
  { path: 'terms', title: 'terms', access: 'public' },
  // The e-mailed link of an API-key withdrawal: its token is the proof, signed in or not.
  {
    path: 'withdrawal-confirm',
    title: 'withdrawalConfirm',
    access: 'public',
    screen: 'withdrawalConfirm',
  },
];

const authPages: RouteEntry[] = [
  { path: 'auth', title: 'login', access: 'guest', rule: 'authAlias' },
  { path: 'login', title: 'login', access: 'guest', screen: 'login' },
  { path: 'register', title: 'register', access: 'guest', screen: 'register' },
  { path: 'check-email', title: 'checkEmail', access: 'guest', screen: 'checkEmail' },
  { path: 'verify', title: 'verify', access: 'guest', screen: 'verify' },
  { path: 'device-confirmation', title: 'deviceCode', access: 'guest', screen: 'deviceCode' },
  { path: '2fa', title: 'twoFactor', access: 'guest', screen: 'twoFactor' },
  { path: 'forgot-password', title: 'forgotPassword', access: 'guest', screen: 'forgotPassword' },
  { path: 'reset-password', title: 'resetPassword', access: 'guest', screen: 'resetPassword' },
  { path: 'google-auth', title: 'googleAuth', access: 'guest', screen: 'googleAuth' },
];

const userPages: RouteEntry[] = [
  { path: 'user/profile', title: 'profile', access: 'user', screen: 'profile' },
  { path: 'user/wallet-list', title: 'walletList', access: 'user', screen: 'walletList' },
  { path: 'user/wallet-margin', title: 'walletMargin', access: 'user' },
  {
    path: 'user/balances/:ticker',
    title: 'balanceTicker',
    access: 'user',
    screen: 'balanceDetail',
  },
  {
    path: 'user/wallet/deposit/:ticker',
    title: 'deposit',
    access: 'user',
    screen: 'deposit',
  },
  {
    path: 'user/wallet/withdraw/:ticker',
    title: 'withdraw',
    access: 'user',
    screen: 'withdraw',
  },
  { path: 'user/support', title: 'support', access: 'user' },
  { path: 'user/support/ticket/:ticketId', title: 'supportTicket', access: 'user' },
  { path: 'user/verification', title: 'verification', access: 'user', header: false },
  { path: 'user/security-main', title: 'security', access: 'user', screen: 'security' },
  { path: 'user/settings', title: 'settings', access: 'user', screen: 'settings' },
  {
    path: 'user/address-management',
    title: 'addressManagement',
    access: 'user',
    screen: 'addressManagement',
  },
  { path: 'user/referrals', title: 'userReferrals', access: 'user', footer: false },
  { path: 'user/current-referrals', title: 'currentReferrals', access: 'user', footer: false },
  { path: 'user/my-referrals', title: 'myReferrals', access: 'user', footer: false },
  { path: 'user/referrals-history', title: 'referralsHistory', access: 'user', footer: false },
  {
    path: 'user/referrals-accrual-history',
    title: 'referralsAccrualHistory',
    access: 'user',
    footer: false,
  },
  { path: 'user/api', title: 'apiKeys', access: 'user', screen: 'apiKeys' },
  { path: 'user/staking', title: 'userStaking', access: 'user' },
  { path: 'user/exchange', title: 'exchange', access: 'public', rule: 'userExchange' },
  { path: 'user/buy-crypto', title: 'buyCrypto', access: 'user' },
  { path: 'user/buy-crypto/mercuryo', title: 'buyCryptoMercuryo', access: 'user' },
  { path: 'user/buy-crypto/itez', title: 'buyCryptoItez', access: 'user' },
];

const historyPages: RouteEntry[] = [
  { path: 'history/orders', title: 'historyOrders', access: 'user', screen: 'history' },
  { path: 'history/active', title: 'historyActive', access: 'user', screen: 'history' },
  { path: 'history/trades', title: 'historyTrades', access: 'user', screen: 'history' },
  { path: 'history/deposit', title: 'historyDeposit', access: 'user', screen: 'walletHistory' },
  { path: 'history/codes', title: 'historyCodes', access: 'user', screen: 'walletHistory' },
  {
    path: 'history/withdraw',
    title: 'historyWithdraw',
    access: 'user',
    screen: 'walletHistory',
  },
];

export const notFoundEntry: RouteEntry = {
  path: 'not-found',
  title: 'notFound',
  access: 'public',
  rule: 'notFound',
  screen: 'notFound',
  footer: false,
};

export const routeCatalogue: readonly RouteEntry[] = [
  ...publicPages,
  ...authPages,
  ...userPages,
  ...historyPages,
  notFoundEntry,
];

/** Named routes of the spec that other screens link to by name. */
export const namedPaths = {
  userSupport: '/user/support',
} as const;
