import type { OrderJson, Page } from '@lattice/contracts';
import {
  type InfiniteData,
  type QueryKey,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/apiError';
import { noticeDurationsMs } from '../../lib/notices';
import { showToast } from '../../ui/toastStore';
import { balancesKey, cancelAllOrders, cancelOrder, openOrdersKey } from '../trade/tradeApi';
import type { HistoryRow } from './historyApi';

type Pages = InfiniteData<Page<HistoryRow>, number>;

function without(pages: Pages | undefined, id: number): Pages | undefined {
  if (pages === undefined) return pages;
  return {
    ...pages,
    pages: pages.pages.map((page) => ({
      ...page,
      records: page.records.filter((row) => row.id !== id),
    })),
  };
}

/**
 * Cancel and cancel all on the active-orders page (SPEC.md §4, §8): a cancelled row goes at
 * once and comes back with "not exists" if the server refuses.
 */
export function useActiveOrderCancels(listKey: QueryKey, pair: string) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const toast = (kind: 'success' | 'error', text: string, title?: string) =>
    showToast({ kind, text, title, durationMs: noticeDurationsMs.notice });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: listKey });
    void queryClient.invalidateQueries({ queryKey: openOrdersKey });
    void queryClient.invalidateQueries({ queryKey: balancesKey });
  };

  const cancel = useMutation({
    mutationFn: (order: OrderJson) => cancelOrder(order.id),
    onMutate: (order) => {
      const before = queryClient.getQueryData<Pages>(listKey);
      queryClient.setQueryData<Pages>(listKey, (pages) => without(pages, order.id));
      return before;
    },
    onSuccess: (_answer, order) => toast('success', t('trade.deleted', { pair: order.market })),
    onError: (_error, _order, before) => {
      if (before) queryClient.setQueryData(listKey, before);
      toast('error', t('trade.notExists'), t('trade.uhOh'));
    },
    onSettled: refresh,
  });

  const cancelAll = useMutation({
    mutationFn: () => cancelAllOrders(pair),
    onSuccess: () =>
      toast('success', pair ? t('trade.deletedAll', { pair }) : t('trade.deletedAllPairs')),
    onError: (error) =>
      toast('error', isApiError(error) && error.message ? error.message : t('trade.deleteFailed')),
    onSettled: refresh,
  });

  return { cancel, cancelAll };
}
