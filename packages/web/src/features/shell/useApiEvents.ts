import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { onApiEvent } from '../../api/client';
import { forgetUser } from '../../api/session';
import { localizePath, splitLanguage } from '../../i18n/languages';
import { useLanguage } from '../../i18n/useLanguage';
import { rememberNotFoundPath } from '../../lib/notFound';
import { networkWarning } from '../../lib/notices';

/** Pages a signed-out visitor is already on while signing in: a 401 there needs no redirect. */
const signInPaths = ['/login', '/2fa', '/device-confirmation', '/register', '/verify'];

/**
 * Follows the API's answers app-wide (SPEC.md §2, §8): 401 → sign in, coming back here
 * after; 404 on a read → the not-found page, which restores the address; a network failure
 * → one warning, throttled.
 */
export function useApiEvents(): void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const language = useLanguage();
  const { t } = useTranslation();
  const location = useLocation();
  const here = location.pathname + location.search;
  const latest = useRef({ navigate, language, t, here });
  latest.current = { navigate, language, t, here };

  useEffect(() => {
    const here = () => latest.current.here;
    const stopUnauthorized = onApiEvent('unauthorized', () => {
      forgetUser(queryClient);
      const { path } = splitLanguage(here().split('?')[0] ?? '/');
      const redirect = signInPaths.includes(path) ? '' : `?redirect=${encodeURIComponent(here())}`;
      latest.current.navigate(localizePath(`/login${redirect}`, latest.current.language));
    });
    const stopNotFound = onApiEvent('notFound', () => {
      rememberNotFoundPath(here());
      latest.current.navigate(localizePath('/not-found', latest.current.language));
    });
    const stopNetwork = onApiEvent('network', () =>
      networkWarning(latest.current.t('notices.network')),
    );
    return () => {
      stopUnauthorized();
      stopNotFound();
      stopNetwork();
    };
  }, [queryClient]);
}
