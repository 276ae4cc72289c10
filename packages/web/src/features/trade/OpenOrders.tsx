import type { OrderJson, Page } from '@lattice/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/apiError';
import { Button } from '../../ui/Button';
import { showToast } from '../../ui/toastStore';
import { timeOf } from './RecentTrades';
import styles from './trade.module.css';
import { balancesKey, cancelAllOrders, cancelOrder, openOrdersQuery } from './tradeApi';

const noticeMs = 5000;
const kindKeys = ['limit', 'stopLimit', 'oco'] as const;

/** The order's type label (SPEC.md §3): Limit, Market, Stop Limit or OCO. */
export function kindKey(order: OrderJson): string {
  if (order.type === 2) return 'market';
  return kindKeys[order.algorithm] ?? 'limit';
}

/** The signed-in user's open orders on the pair, with cancel and cancel all. */
export function OpenOrders({ pair }: { pair: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = openOrdersQuery(pair);
  const orders = useQuery(query).data?.records ?? [];
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: query.queryKey });
    void queryClient.invalidateQueries({ queryKey: balancesKey });
  };

  // NOTE: the row goes at once and comes back if the server refuses (SPEC.md §4).
  const cancel = useMutation({
    mutationFn: (id: number) => cancelOrder(id),
    onMutate: (id) => {
      const before = queryClient.getQueryData<Page<OrderJson>>(query.queryKey);
      if (before) {
        const records = before.records.filter((order) => order.id !== id);
        queryClient.setQueryData(query.queryKey, { ...before, records });
      }
      return before;
    },
    onSuccess: () => {
      showToast({ kind: 'success', text: t('trade.deleted', { pair }), durationMs: noticeMs });
    },
    onError: (_error, _id, before) => {
      if (before) queryClient.setQueryData(query.queryKey, before);
      showToast({
        kind: 'error',
        title: t('trade.uhOh'),
        text: t('trade.notExists'),
        durationMs: noticeMs,
      });
    },
    onSettled: refresh,
  });

  const cancelAll = useMutation({
    mutationFn: () => cancelAllOrders(pair),
    onSuccess: () => {
      showToast({ kind: 'success', text: t('trade.deletedAll', { pair }), durationMs: noticeMs });
    },
    onError: (error) => {
      const text = isApiError(error) && error.message ? error.message : t('trade.deleteFailed');
      showToast({ kind: 'error', text, durationMs: noticeMs });
    },
    onSettled: refresh,
  });

  return (
    <>
      {orders.length > 0 && (
        <div className={styles.tabActions}>
          <Button
            size="s"
            variant="secondary"
            loading={cancelAll.isPending}
            onClick={() => cancelAll.mutate()}
          >
            {t('trade.cancelAll')}
          </Button>
        </div>
      )}
      <table className={styles.table}>
        <thead>
          <tr>
            <th>{t('trade.time')}</th>
            <th>{t('trade.type')}</th>
            <th>{t('trade.side')}</th>
            <th>{t('trade.price')}</th>
            <th>{t('trade.amount')}</th>
            <th>{t('trade.filled')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.id} data-testid="open-order">
              <td>{timeOf(order.ctime)}</td>
              <td>{t(`trade.kinds.${kindKey(order)}`)}</td>
              <td className={order.side === 2 ? styles.buy : styles.sell}>
                {t(order.side === 2 ? 'trade.buy' : 'trade.sell')}
              </td>
              <td>{order.price}</td>
              <td>{order.amount}</td>
              <td>{order.deal_stock}</td>
              <td>
                <Button size="s" variant="ghost" onClick={() => cancel.mutate(order.id)}>
                  {t('trade.cancel')}
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {orders.length === 0 && <div className={styles.empty}>{t('trade.noItems')}</div>}
    </>
  );
}
