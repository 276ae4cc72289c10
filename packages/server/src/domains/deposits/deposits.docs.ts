import { addressQuery, depositHistoryQuery, newAddressBody } from '@lattice/contracts';
import type { RouteDoc } from '../apiDocs/openApi.js';

/** The deposit routes in the OpenAPI document. */
export const depositsApiDocs: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/api/v2/profile/address/:ticker',
    summary: 'The current deposit address (and memo) on a network, the first by default',
    query: addressQuery,
  },
  {
    method: 'post',
    path: '/api/v2/profile/address',
    summary: 'A new deposit address, once the current one received a deposit',
    body: newAddressBody,
  },
  {
    method: 'get',
    path: '/api/v2/deposit_history',
    summary: 'Deposits, newest first, with confirmations, filters and paging; format=csv for CSV',
    query: depositHistoryQuery,
  },
  {
    method: 'get',
    path: '/api/v2/blockHeight/:ticker',
    summary: 'The newest block of the currency network',
    query: addressQuery,
  },
];
