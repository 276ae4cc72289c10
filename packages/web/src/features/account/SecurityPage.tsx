import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button';
import { StateMessage } from '../../ui/Panel';
import { AccountPage } from './AccountPage';
import { AntiPhishingPanel } from './AntiPhishingPanel';
import { securitySettingsQuery } from './accountApi';
import { PasswordPanel } from './PasswordPanel';
import { SessionsPanel } from './SessionsPanel';
import { TwoFactorPanel } from './TwoFactorPanel';

/** 2FA, anti-phishing code, password and sessions. */
export default function SecurityPage() {
  const { t } = useTranslation();
  const security = useQuery(securitySettingsQuery);
  return (
    <AccountPage title={t('routes.security')}>
      {security.isPending && <StateMessage kind="loading">{t('common.loading')}</StateMessage>}
      {security.isError && (
        <StateMessage
          kind="error"
          action={
            <Button size="s" variant="secondary" onClick={() => void security.refetch()}>
              {t('common.retry')}
            </Button>
          }
        >
          {t('account.loadFailed')}
        </StateMessage>
      )}
      {security.data && (
        <>
          <TwoFactorPanel enabled={security.data.twoFactorEnabled} />
          <AntiPhishingPanel security={security.data} />
          <PasswordPanel twoFactorEnabled={security.data.twoFactorEnabled} />
        </>
      )}
      <SessionsPanel />
    </AccountPage>
  );
}
