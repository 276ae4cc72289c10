import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { systemParamsKey } from '../../api/session';
import { accountKeys } from './accountApi';

/** After a security change: the settings and the session globals (2FA flag) are stale. */
export function useAccountRefresh(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: accountKeys.security }),
      queryClient.invalidateQueries({ queryKey: accountKeys.general }),
      queryClient.invalidateQueries({ queryKey: systemParamsKey }),
    ]);
  }, [queryClient]);
}
