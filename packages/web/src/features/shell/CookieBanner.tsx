import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import { local, storageKeys } from '../../lib/storage';
import { Button } from '../../ui/Button';
import styles from './RootLayout.module.css';

/** Shown until dismissed; the dismissal is remembered on this browser. */
export function CookieBanner() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const [dismissed, setDismissed] = useState(() => local.get(storageKeys.cookiesAccepted) === '1');
  if (dismissed) return null;
  return (
    <section className={styles.cookieBanner} aria-label={t('cookies.title')}>
      <p>
        {t('cookies.text')} <Link to={to('/privacy-policy')}>{t('nav.privacyPolicy')}</Link>
      </p>
      <Button
        size="s"
        onClick={() => {
          local.set(storageKeys.cookiesAccepted, '1');
          setDismissed(true);
        }}
      >
        {t('cookies.accept')}
      </Button>
    </section>
  );
}
