import type { TickerJson } from '@lattice/contracts';
import { useTranslation } from 'react-i18next';
import styles from './trade.module.css';

/** The pair and its rolling 24 h statistics. */
export function MarketHeader({ pair, ticker }: { pair: string; ticker: TickerJson | undefined }) {
  const { t } = useTranslation();
  const negative = ticker?.change.startsWith('-') ?? false;
  const stats: [string, string | undefined][] = [
    ['trade.last', ticker?.last],
    ['trade.high', ticker?.high],
    ['trade.low', ticker?.low],
    ['trade.volume', ticker?.volume],
  ];
  return (
    <section className={`${styles.panel} ${styles.header}`}>
      <h2 className={styles.pairName} data-testid="pair-name">
        {pair.replace('_', ' / ')}
      </h2>
      <span className={styles.stat}>
        {t('trade.change')}
        <strong className={negative ? styles.sell : styles.buy}>
          {ticker ? `${ticker.change}%` : '—'}
        </strong>
      </span>
      {stats.map(([key, value]) => (
        <span key={key} className={styles.stat}>
          {t(key)}
          <strong>{value ?? '—'}</strong>
        </span>
      ))}
    </section>
  );
}
