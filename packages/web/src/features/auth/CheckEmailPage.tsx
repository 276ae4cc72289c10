import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import { AuthCard } from './AuthCard';
import styles from './auth.module.css';

/** After sign-up: the confirmation link is in the mailbox. */
export default function CheckEmailPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const [search] = useSearchParams();
  const email = search.get('email');
  return (
    <AuthCard title={t('auth.checkEmail.title')}>
      <p className={styles.info}>
        {email ? t('auth.checkEmail.sentTo', { email }) : t('auth.checkEmail.sent')}
      </p>
      <p>{t('auth.checkEmail.notArrived')}</p>
      <Link to={to('/login')}>{t('auth.backToLogin')}</Link>
    </AuthCard>
  );
}
