import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { kindKey } from './OpenOrders';
import { averagePriceOf } from './orderMath';
import { timeOf } from './RecentTrades';
import styles from './trade.module.css';
import { finishedOrdersQuery, ownTradesQuery } from './tradeApi';

/** The user's last finished orders on the pair: what traded, at what average price. */
export function FinishedOrders({ pair }: { pair: string }) {
  const { t } = useTranslation();
  const query = useQuery(finishedOrdersQuery(pair));
  const orders = query.data?.records ?? [];
  return (
    <>
      <table className={styles.table}>
        <thead>
          <tr>
            <th>{t('trade.time')}</th>
            <th>{t('trade.type')}</th>
            <th>{t('trade.side')}</th>
            <th>{t('trade.price')}</th>
            <th>{t('trade.amount')}</th>
            <th>{t('trade.filled')}</th>
            <th>{t('trade.fee')}</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.id} data-testid="finished-order">
              <td>{timeOf(order.ftime)}</td>
              <td>{t(`trade.kinds.${kindKey(order)}`)}</td>
              <td className={order.side === 2 ? styles.buy : styles.sell}>
                {t(order.side === 2 ? 'trade.buy' : 'trade.sell')}
              </td>
              <td>{averagePriceOf(order.deal_money, order.deal_stock) ?? order.price}</td>
              <td>{order.type === 2 && order.amount === '0' ? order.total : order.amount}</td>
              <td>{order.deal_stock}</td>
              <td>{order.deal_fee}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Empty shown={query.isSuccess && orders.length === 0} failed={query.isError} />
    </>
  );
}

/** The user's last trades on the pair. */
export function OwnTrades({ pair }: { pair: string }) {
  const { t } = useTranslation();
  const query = useQuery(ownTradesQuery(pair));
  const trades = query.data?.records ?? [];
  return (
    <>
      <table className={styles.table}>
        <thead>
          <tr>
            <th>{t('trade.time')}</th>
            <th>{t('trade.side')}</th>
            <th>{t('trade.price')}</th>
            <th>{t('trade.amount')}</th>
            <th>{t('trade.total')}</th>
            <th>{t('trade.fee')}</th>
          </tr>
        </thead>
        <tbody>
          {trades.map((trade) => (
            <tr key={trade.id} data-testid="own-trade">
              <td>{timeOf(trade.time)}</td>
              <td className={trade.side === 2 ? styles.buy : styles.sell}>
                {t(trade.side === 2 ? 'trade.buy' : 'trade.sell')}
              </td>
              <td>{trade.price}</td>
              <td>{trade.amount}</td>
              <td>{trade.deal}</td>
              <td>
                {trade.fee} {trade.fee_asset}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Empty shown={query.isSuccess && trades.length === 0} failed={query.isError} />
    </>
  );
}

function Empty({ shown, failed }: { shown: boolean; failed: boolean }) {
  const { t } = useTranslation();
  if (failed) return <div className={styles.empty}>{t('trade.loadFailed')}</div>;
  return shown ? <div className={styles.empty}>{t('trade.noItems')}</div> : null;
}
