import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Switch } from '../../ui/Switch';
import styles from './account.module.css';
import { accountApi, accountKeys, type GeneralSettings } from './accountApi';

/** The code SPEC.md §4 shows when the custom fee setting could not be changed. */
export const customFeeErrorCode = 111;

type Status = 'ok' | 'loading' | 'error';

/**
 * Paying fees in LTT. The switch moves at once and shows loading; it settles from the
 * refreshed settings, or goes back with error 111 when the change failed.
 */
export function CustomFeeSetting({ settings }: { settings: GeneralSettings }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Status>('ok');
  const [localFlag, setLocalFlag] = useState<boolean | null>(null);
  const enabled = localFlag ?? settings.isCustomFeeEnabled;

  const change = async (next: boolean) => {
    setLocalFlag(next);
    setStatus('loading');
    try {
      await accountApi.setCustomFee(next);
      await queryClient.refetchQueries({ queryKey: accountKeys.general });
      setLocalFlag(null);
      setStatus('ok');
    } catch {
      setLocalFlag(null);
      setStatus('error');
    }
  };

  return (
    <div className={styles.setting}>
      <div>
        <strong>{t('account.settings.customFee')}</strong>
        <p>{t('account.settings.customFeeText')}</p>
        {status === 'error' && (
          <p className={styles.warning} role="alert">
            {t('account.settings.customFeeError', { code: customFeeErrorCode })}
          </p>
        )}
      </div>
      <Switch
        checked={enabled}
        busy={status === 'loading'}
        label={t('account.settings.customFee')}
        onChange={(next) => void change(next)}
      />
    </div>
  );
}
