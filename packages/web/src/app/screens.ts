import type { ComponentType } from 'react';
import type { ScreenName } from './routeCatalogue';

/** Each built screen as a module of its own, loaded when its route is first opened. */
export const screens: Record<ScreenName, () => Promise<{ default: ComponentType }>> = {
  home: () => import('../features/shell/HomePage'),
  trade: () => import('../features/trade/TradePage'),
  history: () => import('../features/history/HistoryPage'),
  notFound: () => import('../features/shell/NotFoundPage'),
  login: () => import('../features/auth/LoginPage'),
  register: () => import('../features/auth/RegisterPage'),
  checkEmail: () => import('../features/auth/CheckEmailPage'),
  verify: () => import('../features/auth/VerifyPage'),
  deviceCode: () => import('../features/auth/DeviceCodePage'),
  twoFactor: () => import('../features/auth/TwoFactorPage'),
  forgotPassword: () => import('../features/auth/ForgotPasswordPage'),
  resetPassword: () => import('../features/auth/ResetPasswordPage'),
  googleAuth: () => import('../features/auth/GoogleAuthPage'),
  profile: () => import('../features/account/ProfilePage'),
  security: () => import('../features/account/SecurityPage'),
  settings: () => import('../features/account/SettingsPage'),
  apiKeys: () => import('../features/account/ApiKeysPage'),
  walletList: () => import('../features/wallet/WalletListPage'),
  balanceDetail: () => import('../features/wallet/BalanceDetailPage'),
  deposit: () => import('../features/wallet/DepositPage'),
  withdraw: () => import('../features/wallet/WithdrawPage'),
  addressManagement: () => import('../features/wallet/AddressManagementPage'),
  codes: () => import('../features/wallet/CodesPage'),
  walletHistory: () => import('../features/wallet/WalletHistoryPage'),
  withdrawalConfirm: () => import('../features/wallet/WithdrawalConfirmPage'),
};
