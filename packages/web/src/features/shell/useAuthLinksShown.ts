import { useLocation } from 'react-router';
import { splitLanguage } from '../../i18n/languages';

/** Sign in is not offered on the sign-in page, nor sign up on the sign-up page (SPEC.md §2). */
export function useAuthLinksShown(): { signIn: boolean; signUp: boolean } {
  const { path } = splitLanguage(useLocation().pathname);
  return { signIn: path !== '/login', signUp: path !== '/register' };
}
