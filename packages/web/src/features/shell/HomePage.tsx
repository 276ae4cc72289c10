import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pairNames, useSystemParams } from '../../api/session';
import { useLocalePath } from '../../i18n/useLanguage';
import styles from './HomePage.module.css';

/** The front page: what the exchange offers and its markets. */
export default function HomePage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const params = useSystemParams();
  const pairs = pairNames(params);
  return (
    <div className={styles.home}>
      <section className={styles.hero}>
        <h1>{t('home.title')}</h1>
        <p>{t('home.subtitle')}</p>
        <div className={styles.actions}>
          {params?.user ? (
            <Link className={styles.primary} to={to('/trade')}>
              {t('home.startTrading')}
            </Link>
          ) : (
            <Link className={styles.primary} to={to('/register')}>
              {t('nav.signUp')}
            </Link>
          )}
          <Link className={styles.secondary} to={to('/exchange')}>
            {t('nav.fastExchange')}
          </Link>
        </div>
      </section>
      <section className={styles.markets} aria-labelledby="markets-title">
        <h2 id="markets-title">{t('home.markets')}</h2>
        {pairs.length === 0 ? (
          <p className={styles.muted}>{t('common.noItems')}</p>
        ) : (
          <ul>
            {pairs.map((pair) => (
              <li key={pair}>
                <Link to={to(`/trade/${pair}`)}>{pair.replace('_', ' / ')}</Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
