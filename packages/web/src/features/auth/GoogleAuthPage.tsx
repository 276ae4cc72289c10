import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import { StateMessage } from '../../ui/Panel';
import { AuthCard } from './AuthCard';
import styles from './auth.module.css';
import { authApi, googleStartUrl } from './authApi';

/** The query of Google sign-in's availability, shared by the pages that offer it. */
export const googleAuthQuery = {
  queryKey: ['googleAuth'],
  queryFn: authApi.checkGoogleAuth,
  retry: false,
} as const;

/**
 * Sign-in and sign-up with Google, when the exchange has it configured. The server takes the
 * browser to Google and back; an account it does not know comes back to sign-up.
 */
export default function GoogleAuthPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const check = useQuery(googleAuthQuery);
  return (
    <AuthCard
      title={t('auth.google.title')}
      footer={<Link to={to('/login')}>{t('auth.backToLogin')}</Link>}
    >
      {check.isPending && <StateMessage kind="loading">{t('common.loading')}</StateMessage>}
      {(check.isError || check.data?.enabled === false) && (
        <p className={styles.info}>{t('auth.google.unavailable')}</p>
      )}
      {check.data?.enabled && (
        <a href={googleStartUrl} className={styles.googleButton}>
          {t('auth.google.continue')}
        </a>
      )}
    </AuthCard>
  );
}
