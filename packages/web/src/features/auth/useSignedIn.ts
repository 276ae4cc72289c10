import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { resetSession } from '../../api/session';
import { useLocalePath } from '../../i18n/useLanguage';
import { safeRedirectPath } from '../../lib/safeRedirect';
import { setPendingLogin } from './pendingLogin';

/** The `redirect` query of the auth pages, carried from step to step. */
export function useRedirectQuery(): string {
  const [search] = useSearchParams();
  const redirect = safeRedirectPath(search.get('redirect'));
  return redirect ? `?redirect=${encodeURIComponent(redirect)}` : '';
}

/** Finishes sign-in: reloads the session and goes back where the user was sent from. */
export function useSignedIn(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const to = useLocalePath();
  const [search] = useSearchParams();
  return useCallback(async () => {
    setPendingLogin(null);
    await resetSession(queryClient);
    navigate(safeRedirectPath(search.get('redirect')) ?? to('/'), { replace: true });
  }, [queryClient, navigate, to, search]);
}
