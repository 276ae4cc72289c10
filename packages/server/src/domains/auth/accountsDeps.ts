import type { Db } from '../../db/database.js';
import type { Mailer } from '../mail/mailer.js';
import type { AuthLimiters } from './limits.js';
import type { SecretBox } from './secretBox.js';

/** Everything the account flows use, decorated on the app as `accounts`. */
export interface AccountsDeps {
  db: Db;
  mailer: Mailer;
  limiters: AuthLimiters;
  now: () => number;
  secretKey: string;
  /** Where users open the site: e-mail links point here. */
  publicUrl: string;
  /** Origins allowed to send state-changing requests besides the request's own host. */
  allowedOrigins: readonly string[];
  /** Seals TOTP secrets at rest. */
  totpBox: SecretBox;
  /** Seals API-key secrets at rest. */
  apiKeyBox: SecretBox;
}
