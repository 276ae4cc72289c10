import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useLocalePath } from '../../i18n/useLanguage';
import { responseNotice } from '../../lib/notices';

/**
 * Signs out this session only, then loads the front page afresh: a full page load drops
 * every cached answer and pending request of the user at once, so no screen still open asks
 * the server again with a session that is gone.
 */
export function useLogout(): () => Promise<void> {
  const to = useLocalePath();
  const { t } = useTranslation();
  return useCallback(async () => {
    try {
      await api.post('/logout', {}, { on401: 'throw' });
    } catch {
      responseNotice(t('notices.logoutFailed'));
      return;
    }
    window.location.assign(to('/'));
  }, [to, t]);
}
