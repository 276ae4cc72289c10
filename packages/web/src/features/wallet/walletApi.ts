import type {
  DepositAddressJson,
  DepositJson,
  Page,
  VoucherJson,
  WhitelistAddressJson,
  WithdrawalFeeJson,
  WithdrawalJson,
  WithdrawLimitJson,
} from '@lattice/contracts';
import { api } from '../../api/client';

/** The wallet calls of API.md "Wallet" and SPEC.md §7 "Wallet", "Whitelist", "Codes". */

/** One row of `GET /api/v3/profile/balance` (SPEC.md §3 "Wallet balance"). */
export interface WalletBalance {
  ticker: string;
  label: string;
  isFiat: boolean;
  isMemo: boolean;
  isDepositOn: boolean;
  isWithdrawOn: boolean;
  fullBalance: string;
  fullBalanceBtc: string;
  mainBalance: string;
  tradeAvailable: string;
  tradeBalance: string;
  tradeFreeze: string;
  withdrawalLimit: string | null;
  tradePairs: string[];
}

/** A network an asset moves on, as a payment method of SPEC.md §3. */
export interface PaymentMethod {
  key: string;
  name: string;
  memo: boolean;
  contract_address: string | null;
  fee: { fixed: string; flexMin: string; flexMax: string; flexPercent: string };
  minAmount: string;
  maxAmount: string;
  confirmations: number;
}

export interface PaymentData {
  ticker: string;
  enabled: boolean;
  paymentList: PaymentMethod[];
}

export type Account = 'main' | 'trade';

export interface WithdrawalRequest {
  amount: string;
  address: string;
  memo?: string;
  network: string;
  code: string;
}

export interface WhitelistList {
  enabled: boolean;
  records: WhitelistAddressJson[];
}

export type CodeList = 'my' | 'history';

/** Filters of the deposit and withdrawal lists; dates are Unix seconds. */
export interface RecordFilters {
  ticker?: string;
  status?: string;
  from?: number;
  to?: number;
}

/** The query of a filtered list page, without the empty filters. */
export function recordsQuery(filters: RecordFilters, offset: number, limit: number) {
  return {
    ticker: filters.ticker || undefined,
    status: filters.status || undefined,
    from: filters.from,
    to: filters.to,
    offset,
    limit,
  };
}

const listQuery = (ticker: string, offset: number, limit: number) => ({
  ticker: ticker || undefined,
  offset,
  limit,
});

export const walletApi = {
  balances: () => api.get<WalletBalance[]>('/v3/profile/balance'),
  transfer: (body: { ticker: string; amount: string; from: Account; to: Account }) =>
    api.post<{ mainBalance: string; tradeAvailable: string }>('/v2/profile/transfer', body),
  depositData: (ticker: string) =>
    api.get<PaymentData>(`/v3/profile/depositdata/${encodeURIComponent(ticker)}`),
  withdrawalData: (ticker: string) =>
    api.get<PaymentData>(`/v3/profile/withdrawaldata/${encodeURIComponent(ticker)}`),
  address: (ticker: string, network: string) =>
    api.get<DepositAddressJson>(`/v2/profile/address/${encodeURIComponent(ticker)}`, {
      query: { network },
      on404: 'throw',
    }),
  newAddress: (ticker: string, network: string) =>
    api.post<DepositAddressJson>('/v2/profile/address', { ticker, network }),
  balance: (ticker: string) =>
    api.get<WalletBalance>(`/v3/profile/balance/${encodeURIComponent(ticker)}`),
  deposits: (filters: RecordFilters, offset: number, limit: number) =>
    api.get<Page<DepositJson>>('/v2/deposit_history', {
      query: recordsQuery(filters, offset, limit),
      on404: 'throw',
    }),
  withdrawals: (filters: RecordFilters, offset: number, limit: number) =>
    api.get<Page<WithdrawalJson>>('/v2/withdraw_history', {
      query: recordsQuery(filters, offset, limit),
      on404: 'throw',
    }),
  cancelWithdrawal: (id: number) => api.post<WithdrawalJson>(`/v2/withdrawals/${id}/cancel`),
  /** The withdrawal an e-mail link's token would confirm; reading it changes nothing. */
  withdrawalConfirmation: (token: string) =>
    api.get<WithdrawalJson>('/v2/withdrawals/confirm', { query: { token }, on404: 'throw' }),
  confirmWithdrawal: (token: string) =>
    api.post<WithdrawalJson>('/v2/withdrawals/confirm', { token }),
  withdrawLimit: () =>
    api.get<WithdrawLimitJson>('/v3/profile/withdraw_kyc_limit', { on404: 'throw' }),
  calcFee: (ticker: string, network: string, amount: string) =>
    api.post<WithdrawalFeeJson>(
      `/v3/balance/calcfee-${encodeURIComponent(ticker)}/${encodeURIComponent(network)}`,
      { amount, network, action: 2 },
    ),
  withdraw: (ticker: string, body: WithdrawalRequest) =>
    api.post<WithdrawalJson>(
      `/v3/balance/withdrawal-${encodeURIComponent(ticker)}/${encodeURIComponent(body.network)}`,
      body,
    ),
  whitelist: () => api.get<WhitelistList>('/v2/whitelisted-addresses'),
  addWhitelisted: (body: {
    name: string;
    coin: string;
    address: string;
    memo?: string;
    code: string;
  }) => api.post<WhitelistAddressJson>('/v2/whitelist-address', body),
  setWhitelistMode: (enabled: boolean, code: string) =>
    api.post<{ enabled: boolean }>('/v2/2fa-confirm-whitelist', { enabled, code }),
  deleteWhitelisted: (id: number) => api.post('/v2/delete-whitelisted-address', { id }),
  codes: (list: CodeList, ticker: string, offset: number, limit: number) =>
    api.get<Page<VoucherJson>>(`/v2/profile/codes/${list}`, {
      query: listQuery(ticker, offset, limit),
      on404: 'throw',
    }),
  createCode: (ticker: string, amount: string) =>
    api.post<VoucherJson>('/v2/profile/code/create', { ticker, amount }),
  applyCode: (code: string) => api.post<VoucherJson>('/v2/profile/code/apply', { code }),
  cancelCode: (code: string) => api.post<VoucherJson>('/v2/profile/code/delete', { code }),
};

export const walletKeys = {
  balances: ['wallet', 'balances'] as const,
  balance: (ticker: string) => ['wallet', 'balances', ticker] as const,
  withdrawLimit: ['wallet', 'withdrawLimit'] as const,
  depositData: (ticker: string) => ['wallet', 'depositData', ticker] as const,
  withdrawalData: (ticker: string) => ['wallet', 'withdrawalData', ticker] as const,
  address: (ticker: string, network: string) => ['wallet', 'address', ticker, network] as const,
  whitelist: ['wallet', 'whitelist'] as const,
  codes: ['wallet', 'codes'] as const,
  history: ['wallet', 'history'] as const,
};
