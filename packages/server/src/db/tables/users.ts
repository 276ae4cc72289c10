import type { Generated } from 'kysely';

/** Accounts. Later concerns add their own columns (2FA, KYC, ...) in their own migrations. */
export interface UserTables {
  users: UsersTable;
}

export interface UsersTable {
  id: Generated<number>;
  /** Lower-cased; unique. */
  email: string;
  /** Argon2id, PHC string format. */
  password_hash: string;
  nickname: string | null;
  /** ISO 3166-1 alpha-2, upper-case. */
  country: string | null;
  /** Unix milliseconds; null until the address is confirmed. */
  email_verified_at: number | null;
  /** 1 for the demo accounts created on first start in development. */
  is_demo: number;
  created_at: number;
  updated_at: number;
}
