import { withdrawalBody, withdrawalFeeBody, withdrawalHistoryQuery } from '@lattice/contracts';
import type { RouteDoc } from '../apiDocs/openApi.js';

/** The withdrawal and fee routes in the OpenAPI document. */
export const withdrawalsApiDocs: readonly RouteDoc[] = [
  {
    method: 'post',
    path: '/api/v3/balance/calcfee-:ticker/:paymentKey',
    summary: 'Fee, total and minimum of a withdrawal',
    body: withdrawalFeeBody,
  },
  {
    method: 'post',
    path: '/api/v3/balance/withdrawal-:ticker/:paymentKey',
    summary: 'Withdraw crypto; the 2FA code confirms; amount plus fee is held, then taken',
    body: withdrawalBody,
  },
  {
    method: 'get',
    path: '/api/v2/withdraw_history',
    summary: 'Withdrawals, newest first, with filters and paging; format=csv for CSV',
    query: withdrawalHistoryQuery,
  },
];
