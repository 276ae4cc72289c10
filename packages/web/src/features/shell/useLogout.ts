import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { resetSession } from '../../api/session';
import { useLocalePath } from '../../i18n/useLanguage';
import { notice, responseNotice } from '../../lib/notices';
import { clearFinishedOrders } from './finishedOrders';

/** Signs out this session only, forgets the user's cached data and goes to the front page. */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const to = useLocalePath();
  const { t } = useTranslation();
  return useCallback(async () => {
    try {
      await api.post('/logout', {}, { on401: 'throw' });
    } catch {
      responseNotice(t('notices.logoutFailed'));
      return;
    }
    clearFinishedOrders();
    await resetSession(queryClient).catch(() => undefined);
    navigate(to('/'));
    notice(t('notices.loggedOut'), 'success');
  }, [queryClient, navigate, to, t]);
}
