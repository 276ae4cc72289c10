import { voucherCodeBody, voucherCreateBody, voucherListQuery } from '@lattice/contracts';
import type { RouteDoc } from '../apiDocs/openApi.js';

/** The transfer-code routes in the OpenAPI document. */
export const vouchersApiDocs: readonly RouteDoc[] = [
  {
    method: 'post',
    path: '/api/v2/profile/code/create',
    summary: 'Create a transfer code; the amount is held (approved KYC required)',
    body: voucherCreateBody,
    status: 201,
  },
  {
    method: 'post',
    path: '/api/v2/profile/code/apply',
    summary: "Redeem another user's code to the main balance",
    body: voucherCodeBody,
  },
  {
    method: 'post',
    path: '/api/v2/profile/code/delete',
    summary: 'Cancel an own active code; the amount is released',
    body: voucherCodeBody,
  },
  ...(['/api/v2/profile/codes/my', '/api/v2/profile/codes/my/:ticker'] as const).map(
    (path): RouteDoc => ({
      method: 'get',
      path,
      summary: 'Own active codes',
      query: voucherListQuery,
    }),
  ),
  ...(['/api/v2/profile/codes/history', '/api/v2/profile/codes/history/:ticker'] as const).map(
    (path): RouteDoc => ({
      method: 'get',
      path,
      summary: 'Codes created or redeemed, any status',
      query: voucherListQuery,
    }),
  ),
];
