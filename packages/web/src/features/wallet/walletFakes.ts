import type { DepositJson, WithdrawalJson } from '@lattice/contracts';
import type { PaymentData, PaymentMethod, WalletBalance } from './walletApi';

/** Wallet answers as the API gives them, for the screen tests; tests change what they test. */

export function buildBalance(overrides: Partial<WalletBalance> = {}): WalletBalance {
  return {
    ticker: 'BTC',
    label: 'Bitcoin',
    isFiat: false,
    isMemo: false,
    isDepositOn: true,
    isWithdrawOn: true,
    fullBalance: '1.5',
    fullBalanceBtc: '1.5',
    mainBalance: '1',
    tradeAvailable: '0.4',
    tradeBalance: '0.5',
    tradeFreeze: '0.1',
    withdrawalLimit: null,
    tradePairs: ['BTC_USDT'],
    ...overrides,
  };
}

export function buildMethod(overrides: Partial<PaymentMethod> = {}): PaymentMethod {
  return {
    key: 'bitcoin',
    name: 'Bitcoin',
    memo: false,
    contract_address: null,
    fee: { fixed: '0.0002', flexMin: '0', flexMax: '0', flexPercent: '0' },
    minAmount: '0.001',
    maxAmount: '0',
    confirmations: 2,
    ...overrides,
  };
}

export function buildPaymentData(methods: PaymentMethod[], ticker = 'BTC'): PaymentData {
  return { ticker, enabled: true, paymentList: methods };
}

export function buildDeposit(overrides: Partial<DepositJson> = {}): DepositJson {
  return {
    id: 1,
    ticker: 'BTC',
    currency: 'Bitcoin',
    network: 'bitcoin',
    createdAt: 1_700_000_000,
    amount: '0.5',
    status: 2,
    address: 'bc1qexample',
    memo: null,
    reason: null,
    txHash: 'ab'.repeat(32),
    fee: '0',
    confirmations: 1,
    confirmationsRequired: 2,
    explorerLink: '',
    ...overrides,
  };
}

export function buildWithdrawal(overrides: Partial<WithdrawalJson> = {}): WithdrawalJson {
  return {
    id: 9,
    ticker: 'BTC',
    currency: 'Bitcoin',
    network: 'bitcoin',
    createdAt: 1_700_000_000,
    amount: '0.1',
    fee: '0.0002',
    status: 11,
    address: 'bc1qdestination',
    memo: null,
    reason: null,
    txHash: null,
    explorerLink: null,
    cancellable: false,
    ...overrides,
  };
}

export const emptyPage = { records: [], total: 0, offset: 0, limit: 10 };
