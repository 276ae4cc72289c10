import type { Generated } from 'kysely';

/**
 * Accounts and security: the columns added to `users`, sessions, devices, e-mailed tokens,
 * API keys and the mail outbox. Times are Unix milliseconds; flags are 0 or 1.
 */
export interface AuthTables {
  sessions: SessionsTable;
  user_devices: UserDevicesTable;
  email_tokens: EmailTokensTable;
  api_keys: ApiKeysTable;
  api_signatures: ApiSignaturesTable;
  mail_outbox: MailOutboxTable;
}

// The columns of `users` owned by accounts and security (migration 0003_auth) join the users
// table's interface by declaration merging, so `users` stays one table type.
declare module './users.js' {
  interface UsersTable extends AuthUserColumns {}
}

export interface AuthUserColumns {
  /** Mail and interface language: `en`, `ru`, `es`. */
  language: Generated<string>;
  /** `verified`, `pending` or `unverified`, until the KYC domain owns it. */
  kyc_status: Generated<string>;
  /** The TOTP secret, sealed with SECRET_KEY; null while 2FA is off. */
  totp_secret: string | null;
  /** A secret generated but not yet confirmed with a code. */
  totp_pending_secret: string | null;
  /** The last TOTP step accepted: a code of this step or an earlier one is refused. */
  totp_last_step: number | null;
  anti_phishing_code: string | null;
  anti_phishing_enabled: Generated<number>;
  custom_fee_enabled: Generated<number>;
  nickname_changed_at: number | null;
  /** Idle minutes after which a session of this user ends. */
  logout_minutes: Generated<number>;
  /** Withdrawals are refused until then (set by a password change or reset). */
  withdrawals_blocked_until: number | null;
  /** The OpenID Connect subject of the user's Google account, once linked. */
  google_subject: string | null;
}

export interface SessionsTable {
  /** Public id, shown in the sessions list; not a credential. */
  id: string;
  /** SHA-256 of the cookie value: the credential itself is never stored. */
  token_hash: string;
  user_id: number;
  /** `active`, or `2fa` while the password is proved but the second factor is not. */
  stage: string;
  csrf_token: string;
  ip_address: string;
  user_agent: string;
  created_at: number;
  last_seen_at: number;
  /** The absolute end, whatever the activity. */
  expires_at: number;
}

export interface UserDevicesTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the device cookie's id. */
  device_hash: string;
  /** Null until the e-mailed code was entered. */
  confirmed_at: number | null;
  code_hash: string | null;
  code_expires_at: number | null;
  code_attempts: Generated<number>;
  user_agent: string;
  ip_address: string;
  created_at: number;
  last_seen_at: number;
}

export interface EmailTokensTable {
  token_hash: string;
  user_id: number;
  /** `verify_email` or `password_reset`. */
  purpose: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** The public half, sent in `X-API-KEY`. */
  api_key: string;
  /** The HMAC secret, sealed with SECRET_KEY. */
  secret_sealed: string;
  /** Comma-separated: `read,trade,withdraw`. */
  scopes: string;
  /** JSON array of IPs and CIDR ranges; empty means any address. */
  ip_allow_list: string;
  is_enabled: number;
  created_at: number;
  last_used_at: number | null;
}

/** Signatures already accepted, kept past the 5 s window so that each is accepted once. */
export interface ApiSignaturesTable {
  signature: string;
  expires_at: number;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: number;
  /** Null while waiting for SMTP (or always, in the dev outbox without SMTP). */
  sent_at: number | null;
  attempts: Generated<number>;
  last_error: string | null;
}
