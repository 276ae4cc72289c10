import { useTranslation } from 'react-i18next';
import { StateMessage } from '../../ui/Panel';
import styles from './wallet.module.css';

/**
 * What a wallet list shows in place of its rows: a loading or a failure message while its query
 * is pending or failed, else (loaded, nothing in it) the empty note.
 */
export function ListPlaceholder({ status }: { status: 'pending' | 'error' | 'success' }) {
  const { t } = useTranslation();
  if (status === 'pending')
    return <StateMessage kind="loading">{t('wallet.loading')}</StateMessage>;
  if (status === 'error') return <StateMessage kind="error">{t('wallet.loadFailed')}</StateMessage>;
  return <div className={styles.empty}>{t('wallet.noItems')}</div>;
}
