import { useTranslation } from 'react-i18next';
import styles from './Footer.module.css';

export function BackToTop() {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={styles.backToTop}
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
    >
      ↑ {t('footer.backToTop')}
    </button>
  );
}
