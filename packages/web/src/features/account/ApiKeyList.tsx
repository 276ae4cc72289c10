import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/apiError';
import { translateMessage } from '../../i18n/messageKeys';
import { useLanguage } from '../../i18n/useLanguage';
import { responseNotice, submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirmStore';
import { Switch } from '../../ui/Switch';
import styles from './account.module.css';
import { type ApiKey, accountApi, accountKeys } from './accountApi';

/** Toggling and deleting keys, both shown at once and undone when the server refuses. */
function useApiKeyActions() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const replaceKeys = (update: (keys: ApiKey[]) => ApiKey[]) => {
    const previous = queryClient.getQueryData<ApiKey[]>(accountKeys.apiKeys);
    queryClient.setQueryData<ApiKey[]>(accountKeys.apiKeys, (keys) => keys && update(keys));
    return previous;
  };
  const fail = (error: unknown) => {
    if (isApiError(error)) responseNotice(translateMessage(error.firstMessage, t));
  };

  const toggle = async (key: ApiKey, isEnabled: boolean) => {
    const previous = replaceKeys((keys) =>
      keys.map((kept) => (kept.id === key.id ? { ...kept, isEnabled } : kept)),
    );
    try {
      const saved = await accountApi.toggleApiKey(key.id);
      replaceKeys((keys) => keys.map((kept) => (kept.id === saved.id ? saved : kept)));
    } catch (error) {
      queryClient.setQueryData(accountKeys.apiKeys, previous);
      fail(error);
    }
  };

  const remove = async (key: ApiKey) => {
    const confirmed = await confirm({
      title: t('account.apiKeys.deleteTitle'),
      text: t('account.apiKeys.deleteText', { name: key.name || key.key }),
      danger: true,
    });
    if (!confirmed) return;
    const previous = replaceKeys((keys) => keys.filter((kept) => kept.id !== key.id));
    try {
      await accountApi.deleteApiKey(key.id);
      submitNotice(t('account.apiKeys.deleted'));
    } catch (error) {
      // SPEC.md §4: a 400 leaves the key deleted on screen; any other failure brings it back.
      if (!(isApiError(error) && error.status === 400)) {
        queryClient.setQueryData(accountKeys.apiKeys, previous);
      }
      fail(error);
    }
  };
  return { toggle, remove };
}

export function ApiKeyList({ keys }: { keys: ApiKey[] }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { toggle, remove } = useApiKeyActions();
  const date = (seconds: number | null) =>
    seconds === null ? '—' : new Date(seconds * 1000).toLocaleString(language);
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th>{t('account.apiKeys.name')}</th>
            <th>{t('account.apiKeys.key')}</th>
            <th className={styles.wideOnly}>{t('account.apiKeys.scopes')}</th>
            <th className={styles.wideOnly}>{t('account.apiKeys.createdAt')}</th>
            <th className={styles.wideOnly}>{t('account.apiKeys.lastUsed')}</th>
            <th>{t('account.apiKeys.enabled')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id} data-testid="api-key-row">
              <td>{key.name || '—'}</td>
              <td className={styles.mono}>{key.key}</td>
              <td className={styles.wideOnly}>
                {key.scopes.map((scope) => t(`account.apiKeys.scope.${scope}`)).join(', ')}
              </td>
              <td className={styles.wideOnly}>{date(key.createdAt)}</td>
              <td className={styles.wideOnly}>{date(key.lastUsedAt)}</td>
              <td>
                <Switch
                  checked={key.isEnabled}
                  label={t('account.apiKeys.toggle', { name: key.name || key.key })}
                  onChange={(next) => void toggle(key, next)}
                />
              </td>
              <td>
                <Button size="s" variant="ghost" onClick={() => void remove(key)}>
                  {t('account.apiKeys.delete')}
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
