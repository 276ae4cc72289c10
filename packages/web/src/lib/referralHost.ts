import { splitLanguage } from '../i18n/languages';

/** The subdomain referral links are shared on (`ref.example.com/...`). */
export const referralSubdomain = 'ref.';
/** The one route the referral subdomain serves itself: the referral programme. */
export const referralGamePath = '/referrals';

/**
 * Where a page opened on the referral subdomain belongs (SPEC.md §2): the same address on the
 * main host, except the referral route, which stays. Null when no move is needed.
 */
export function mainHostUrl(url: URL): string | null {
  if (!url.hostname.startsWith(referralSubdomain)) return null;
  if (splitLanguage(url.pathname).path === referralGamePath) return null;
  const main = new URL(url.href);
  main.hostname = url.hostname.slice(referralSubdomain.length);
  return main.href;
}
