import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import { StateMessage } from '../../ui/Panel';
import { AuthCard } from './AuthCard';
import styles from './auth.module.css';
import { authApi } from './authApi';

/** Sign-in and sign-up with Google, when the exchange has it configured. */
export default function GoogleAuthPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const check = useQuery({
    queryKey: ['googleAuth'],
    queryFn: authApi.checkGoogleAuth,
    retry: false,
  });
  const url = check.data?.url;
  return (
    <AuthCard
      title={t('auth.google.title')}
      footer={<Link to={to('/login')}>{t('auth.backToLogin')}</Link>}
    >
      {check.isPending && <StateMessage kind="loading">{t('common.loading')}</StateMessage>}
      {(check.isError || (check.isSuccess && !url)) && (
        <p className={styles.info}>{t('auth.google.unavailable')}</p>
      )}
      {url && (
        <a href={url} className={styles.info}>
          {t('auth.google.continue')}
        </a>
      )}
    </AuthCard>
  );
}
