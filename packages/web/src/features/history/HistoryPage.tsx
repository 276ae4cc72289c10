import type { OrderJson } from '@lattice/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { pairNames, useSystemParams } from '../../api/session';
import { splitLanguage } from '../../i18n/languages';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Page } from '../../ui/Page';
import { timeOf } from '../trade/RecentTrades';
import tradeStyles from '../trade/trade.module.css';
import { useActiveOrderCancels } from './activeOrders';
import {
  emptyFilters,
  exportUrl,
  fetchHistoryPage,
  type HistoryFilters,
  type HistoryKind,
  historyPageSize,
} from './historyApi';
import {
  type ActiveStatus,
  activeStatuses,
  activeStatusOf,
  historyColumns,
  translatedColumns,
} from './historyColumns';
import { nextSort, type SortState, sortRows } from './tableSort';

const titles: Record<HistoryKind, string> = {
  orders: 'routes.historyOrders',
  active: 'routes.historyActive',
  trades: 'routes.historyTrades',
};

function kindOf(path: string): HistoryKind {
  if (path.endsWith('/active')) return 'active';
  return path.endsWith('/trades') ? 'trades' : 'orders';
}

/** Order history, active orders and trade history: filters, sorting, Load More and export. */
export default function HistoryPage() {
  const { t } = useTranslation();
  const kind = kindOf(splitLanguage(useLocation().pathname).path);
  const pairs = pairNames(useSystemParams());
  const [filters, setFilters] = useState<HistoryFilters>(emptyFilters);
  const [sort, setSort] = useState<SortState | null>(null);
  const [status, setStatus] = useState<'' | ActiveStatus>('');
  const listKey = ['history', kind, filters];
  const { cancel, cancelAll } = useActiveOrderCancels(listKey, filters.pair);
  const list = useInfiniteQuery({
    queryKey: listKey,
    queryFn: ({ pageParam }) => fetchHistoryPage(kind, filters, pageParam),
    initialPageParam: 0,
    // NOTE: Load More shows only after a full page (SPEC.md §9).
    getNextPageParam: (last) =>
      last.records.length < historyPageSize ? undefined : last.offset + last.records.length,
    staleTime: 0,
  });
  const columns = historyColumns[kind];
  const loaded = list.data?.pages.flatMap((page) => page.records) ?? [];
  // The server lists every active order; the status is read off each one.
  const shownRows =
    kind === 'active' && status
      ? loaded.filter((row) => activeStatusOf(row as OrderJson) === status)
      : loaded;
  const rows = sortRows(
    shownRows,
    sort,
    (row, key) => columns.find((column) => column.key === key)?.cell(row) ?? '',
  );
  const set = (name: keyof HistoryFilters, value: string) =>
    setFilters((current) => ({ ...current, [name]: value }));
  const options = (values: string[], label: (value: string) => string) => [
    { value: '', label: t('trade.history.all') },
    ...values.map((value) => ({ value, label: label(value) })),
  ];

  return (
    <Page title={t(titles[kind])}>
      <div className={tradeStyles.tabs} data-testid="history-filters">
        <SelectField
          label={t('trade.history.pair')}
          value={filters.pair}
          options={options(pairs, (pair) => pair.replace('_', '/'))}
          onChange={(event) => set('pair', event.target.value)}
        />
        {kind === 'active' && (
          <SelectField
            label={t('trade.status')}
            value={status}
            options={options([...activeStatuses], (value) => t(`trade.statuses.${value}`))}
            onChange={(event) => setStatus(event.target.value as '' | ActiveStatus)}
          />
        )}
        {kind !== 'active' && (
          <SelectField
            label={t('trade.side')}
            value={filters.side}
            options={options(['buy', 'sell'], (side) => t(`trade.${side}`))}
            onChange={(event) => set('side', event.target.value)}
          />
        )}
        {kind === 'orders' && (
          <SelectField
            label={t('trade.type')}
            value={filters.type}
            options={options(['limit', 'market', 'stop_limit', 'oco'], (type) =>
              t(`trade.kinds.${type === 'stop_limit' ? 'stopLimit' : type}`),
            )}
            onChange={(event) => set('type', event.target.value)}
          />
        )}
        {kind !== 'active' && (
          <>
            <TextField
              type="date"
              label={t('trade.history.from')}
              value={filters.from}
              onChange={(event) => set('from', event.target.value)}
            />
            <TextField
              type="date"
              label={t('trade.history.to')}
              value={filters.to}
              onChange={(event) => set('to', event.target.value)}
            />
          </>
        )}
        <Button
          variant="secondary"
          onClick={() => {
            setFilters(emptyFilters);
            setStatus('');
          }}
        >
          {t('trade.history.reset')}
        </Button>
        {kind === 'active' && loaded.length > 0 && (
          <Button
            variant="secondary"
            loading={cancelAll.isPending}
            onClick={() => cancelAll.mutate()}
          >
            {t('trade.cancelAll')}
          </Button>
        )}
        {kind !== 'active' && (
          <a href={exportUrl(kind, filters)} download>
            {t('trade.history.export')}
          </a>
        )}
      </div>
      <div className={tradeStyles.orders}>
        <table className={tradeStyles.table}>
          <thead>
            <tr>
              {columns.map((column) => (
                <th
                  key={column.key}
                  aria-sort={
                    sort?.column === column.key
                      ? sort.direction === 'asc'
                        ? 'ascending'
                        : 'descending'
                      : undefined
                  }
                >
                  <button
                    type="button"
                    className={tradeStyles.tab}
                    onClick={() => setSort(nextSort(sort, column.key))}
                  >
                    {t(column.title)}
                  </button>
                </th>
              ))}
              {kind === 'active' && <th />}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-testid="history-row">
                {columns.map((column) => {
                  const value = column.cell(row);
                  const shown =
                    column.key === 'time'
                      ? timeOf(Number(value))
                      : translatedColumns.has(column.key)
                        ? t(String(value))
                        : value;
                  return <td key={column.key}>{shown}</td>;
                })}
                {kind === 'active' && (
                  <td>
                    <Button
                      size="s"
                      variant="ghost"
                      onClick={() => cancel.mutate(row as OrderJson)}
                    >
                      {t('trade.cancel')}
                    </Button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
        {list.isSuccess && rows.length === 0 && (
          <div className={tradeStyles.empty}>{t('trade.noItems')}</div>
        )}
        {list.isError && <div className={tradeStyles.empty}>{t('trade.loadFailed')}</div>}
      </div>
      {list.hasNextPage && (
        <Button
          variant="secondary"
          loading={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {t('trade.history.loadMore')}
        </Button>
      )}
    </Page>
  );
}
