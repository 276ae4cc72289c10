import {
  currencyFeeRuleBody,
  currencySwitchBody,
  withdrawalBody,
  withdrawalConfirmBody,
  withdrawalFeeBody,
  withdrawalHistoryQuery,
} from '@lattice/contracts';
import type { RouteDoc } from '../apiDocs/openApi.js';

/** The withdrawal and fee routes in the OpenAPI document. */
export const withdrawalsApiDocs: readonly RouteDoc[] = [
  {
    method: 'post',
    path: '/api/v3/balance/calcfee-:ticker/:paymentKey',
    summary:
      'Fee (fixed network fee plus flex percent kept between min and max), total and minimum of a withdrawal',
    body: withdrawalFeeBody,
  },
  {
    method: 'post',
    path: '/api/v3/balance/withdrawal-:ticker/:paymentKey',
    summary:
      'Withdraw crypto; the 2FA code confirms; amount plus fee is held. Answers the record: 3 sent, 6 waiting for an operator (above the threshold), 5 waiting for the e-mail link (API-key requests)',
    body: withdrawalBody,
  },
  {
    method: 'post',
    path: '/api/v2/withdrawals/:id/cancel',
    summary: 'Cancel an own withdrawal in status 5, 6 or 10: status 12, funds released',
  },
  {
    method: 'post',
    path: '/api/v2/withdrawals/confirm',
    summary: 'Confirm an API-key withdrawal with the token of its e-mail link (5 → 10 or 6)',
    body: withdrawalConfirmBody,
  },
  {
    method: 'get',
    path: '/api/v2/withdrawals/confirm',
    summary:
      'The withdrawal an e-mail link token would confirm (status 5, link not expired); changes nothing. Unknown, used and expired tokens get the same 422 auth_link_invalid',
    query: withdrawalConfirmBody,
  },
  {
    method: 'get',
    path: '/api/v2/withdrawals/confirm/:token',
    summary:
      'The e-mail link of mails sent before the confirmation page: redirects to /withdrawal-confirm?token=…; changes nothing',
    status: 302,
  },
  {
    method: 'get',
    path: '/api/v2/withdraw_history',
    summary: 'Withdrawals, newest first, with filters and paging; format=csv for CSV',
    query: withdrawalHistoryQuery,
  },
  {
    method: 'get',
    path: '/api/v3/profile/withdraw_kyc_limit',
    summary: 'Withdrawal level (none, basic, verified) and the USD and BTC value left',
  },
];

/** Operator stand-ins, present only with DEV_TOOLS (until the admin console exists). */
export const withdrawalsDevApiDocs: readonly RouteDoc[] = [
  {
    method: 'post',
    path: '/api/dev/withdrawals/:id/approve',
    summary: 'DEV_TOOLS: approve a withdrawal waiting for review (6 → 10 → sent)',
  },
  {
    method: 'post',
    path: '/api/dev/withdrawals/:id/reject',
    summary: 'DEV_TOOLS: reject a withdrawal waiting for review (6 → 12, funds released)',
  },
  {
    method: 'post',
    path: '/api/dev/currencies/switch',
    summary: 'DEV_TOOLS: turn deposits or withdrawals of a currency on or off',
    body: currencySwitchBody,
  },
  {
    method: 'post',
    path: '/api/dev/currencies/fee',
    summary: 'DEV_TOOLS: set the flex fee (percent, min, max) of a currency on a network',
    body: currencyFeeRuleBody,
  },
];
