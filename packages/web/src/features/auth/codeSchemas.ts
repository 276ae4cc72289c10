import { loginRequest, twoFactorCodeRequest } from '@lattice/contracts';

/** The new-device step: the code e-mailed to the user, required here. */
export const deviceCodeForm = loginRequest.pick({ device_code: true }).required();

/** The 2FA step: the code of the authenticator app. */
export const twoFactorCodeForm = twoFactorCodeRequest;
