import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import styles from './trade.module.css';
import { publicTradesQuery } from './tradeApi';

/** A trade time as the user's clock reads it. */
export function timeOf(seconds: number): string {
  return new Date(seconds * 1000).toLocaleTimeString();
}

/** The last 50 public trades of the pair, newest first, coloured by the taker's side. */
export function RecentTrades({ pair }: { pair: string }) {
  const { t } = useTranslation();
  const trades = useQuery(publicTradesQuery(pair)).data?.records ?? [];
  return (
    <section className={`${styles.panel} ${styles.trades}`} aria-label={t('trade.trades')}>
      <h2 className={styles.panelTitle}>{t('trade.trades')}</h2>
      <table className={styles.table}>
        <thead>
          <tr>
            <th>{t('trade.price')}</th>
            <th>{t('trade.amount')}</th>
            <th>{t('trade.time')}</th>
          </tr>
        </thead>
        <tbody>
          {trades.map((trade) => (
            <tr key={trade.id} data-testid="trade-row">
              <td className={styles[trade.type]}>{trade.price}</td>
              <td>{trade.amount}</td>
              <td>{timeOf(trade.time)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {trades.length === 0 && <div className={styles.empty}>{t('trade.noItems')}</div>}
    </section>
  );
}
