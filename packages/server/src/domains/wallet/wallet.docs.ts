import type { RouteDoc } from '../apiDocs/openApi.js';
import { transferBody } from './wallet.schemas.js';

/** The balance, transfer and payment data routes in the OpenAPI document. */
export const walletApiDocs: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/api/v3/profile/balance',
    summary: 'Every currency: balances, full balance and its BTC value, withdrawal limit left',
  },
  {
    method: 'get',
    path: '/api/v3/profile/balance/:ticker',
    summary: 'One currency, the same fields',
  },
  {
    method: 'post',
    path: '/api/v2/profile/transfer',
    summary: 'Move funds between main and trade',
    body: transferBody,
  },
  {
    method: 'get',
    path: '/api/v3/profile/depositdata/:ticker',
    summary: 'Deposit networks of a currency (payment methods)',
  },
  {
    method: 'get',
    path: '/api/v3/profile/withdrawaldata/:ticker',
    summary: 'Withdrawal networks of a currency with their fixed and flex fees and minimum',
  },
];
