import { whitelistAddBody, whitelistDeleteBody, whitelistModeBody } from '@lattice/contracts';
import type { RouteDoc } from '../apiDocs/openApi.js';

/** The whitelist routes in the OpenAPI document. */
export const whitelistApiDocs: readonly RouteDoc[] = [
  { method: 'get', path: '/api/v2/whitelisted-addresses', summary: 'Saved addresses and the mode' },
  {
    method: 'post',
    path: '/api/v2/whitelist-address',
    summary: 'Save a withdrawal address (2FA code required)',
    body: whitelistAddBody,
    status: 201,
  },
  {
    method: 'post',
    path: '/api/v2/2fa-confirm-whitelist',
    summary: 'Turn whitelist mode on or off (2FA code required)',
    body: whitelistModeBody,
  },
  {
    method: 'post',
    path: '/api/v2/delete-whitelisted-address',
    summary: 'Delete a saved address',
    body: whitelistDeleteBody,
  },
];
