import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSessionUser } from '../../api/session';
import { useLocalePath } from '../../i18n/useLanguage';
import { Button } from '../../ui/Button';
import { Panel, StateMessage } from '../../ui/Panel';
import { AccountPage } from './AccountPage';
import { ApiKeyCreateForm } from './ApiKeyCreateForm';
import { ApiKeyList } from './ApiKeyList';
import styles from './account.module.css';
import { apiKeysQuery, type CreatedApiKey } from './accountApi';
import { NewApiKeyModal } from './NewApiKeyModal';

/** API keys: creating one needs 2FA; its secret is shown once. */
export default function ApiKeysPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const user = useSessionUser();
  const keys = useQuery(apiKeysQuery);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  return (
    <AccountPage title={t('routes.apiKeys')}>
      <Panel title={t('account.apiKeys.createTitle')}>
        {user?.twoFactorEnabled ? (
          <ApiKeyCreateForm onCreated={setCreated} />
        ) : (
          <p className={styles.note}>
            {t('account.apiKeys.needsTwoFactor')}{' '}
            <Link to={to('/user/security-main')}>{t('account.apiKeys.turnOnTwoFactor')}</Link>
          </p>
        )}
      </Panel>
      <Panel title={t('account.apiKeys.listTitle')}>
        <p className={styles.muted}>{t('account.apiKeys.docs')}</p>
        {keys.isPending && <StateMessage kind="loading">{t('common.loading')}</StateMessage>}
        {keys.isError && (
          <StateMessage
            kind="error"
            action={
              <Button size="s" variant="secondary" onClick={() => void keys.refetch()}>
                {t('common.retry')}
              </Button>
            }
          >
            {t('account.loadFailed')}
          </StateMessage>
        )}
        {keys.data?.length === 0 && (
          <StateMessage kind="empty">{t('account.apiKeys.none')}</StateMessage>
        )}
        {keys.data && keys.data.length > 0 && <ApiKeyList keys={keys.data} />}
      </Panel>
      {created && <NewApiKeyModal created={created} onClose={() => setCreated(null)} />}
    </AccountPage>
  );
}
