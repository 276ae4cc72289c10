/**
 * The e-mail and password between the password step and the new-device step: the device code
 * is sent with them again. Kept in memory only, never in storage or the URL.
 */
interface PendingLogin {
  email: string;
  password: string;
}

let pending: PendingLogin | null = null;

export function setPendingLogin(login: PendingLogin | null): void {
  pending = login;
}

export function pendingLogin(): PendingLogin | null {
  return pending;
}
