import type { MarketListJson } from '@lattice/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { localizePath } from '../../i18n/languages';
import { useLanguage } from '../../i18n/useLanguage';
import styles from './trade.module.css';
import { marketListQuery } from './tradeApi';

/** The market list by tab (in the order of SPEC.md §9), with search and favorites. */
export function PairList({ pair, signedIn }: { pair: string; signedIn: boolean }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const queryClient = useQueryClient();
  const list = useQuery(marketListQuery).data;
  const tabs = [...(list?.tabs ?? [])].sort((a, b) => a.order - b.order);
  const [tab, setTab] = useState<string>('');
  const [search, setSearch] = useState('');
  const shownTab = tab || tabs[0]?.name || '';
  const inTab = new Set(tabs.find((entry) => entry.name === shownTab)?.pairs ?? []);
  const needle = search.trim().toUpperCase();
  const items = (list?.items ?? []).filter((item) =>
    needle
      ? item.name.includes(needle)
      : inTab.has(item.name) || (shownTab === 'FAVORITE' && item.favorite),
  );

  // NOTE: the star flips at once and flips back if the server refuses (SPEC.md §4).
  const favorite = useMutation({
    mutationFn: ({ name, on }: { name: string; on: boolean }) =>
      on ? api.post('/v2/favorites', { pair: name }) : api.delete(`/v2/favorites/${name}`),
    onMutate: ({ name, on }) => {
      const before = queryClient.getQueryData<MarketListJson>(marketListQuery.queryKey);
      if (before) {
        queryClient.setQueryData(marketListQuery.queryKey, {
          ...before,
          items: before.items.map((item) =>
            item.name === name ? { ...item, favorite: on } : item,
          ),
        });
      }
      return before;
    },
    onError: (_error, _vars, before) => queryClient.setQueryData(marketListQuery.queryKey, before),
    onSettled: () => queryClient.invalidateQueries(marketListQuery),
  });

  return (
    <section className={`${styles.panel} ${styles.pairs}`} aria-label={t('trade.pairs')}>
      <input
        className={styles.search}
        type="search"
        placeholder={t('trade.search')}
        aria-label={t('trade.search')}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <div className={styles.tabs} role="tablist">
        {tabs
          .filter((entry) => signedIn || entry.name !== 'FAVORITE')
          .map((entry) => (
            <button
              key={entry.name}
              type="button"
              role="tab"
              aria-selected={entry.name === shownTab}
              className={`${styles.tab} ${entry.name === shownTab ? styles.tabActive : ''}`}
              onClick={() => setTab(entry.name)}
            >
              {entry.name}
            </button>
          ))}
      </div>
      <table className={styles.table}>
        <tbody>
          {items.map((item) => (
            <tr key={item.name} aria-current={item.name === pair || undefined}>
              <td>
                {signedIn && (
                  <button
                    type="button"
                    className={styles.star}
                    aria-pressed={item.favorite}
                    aria-label={t('trade.favorite')}
                    onClick={() => favorite.mutate({ name: item.name, on: !item.favorite })}
                  >
                    {item.favorite ? '★' : '☆'}
                  </button>
                )}
                <Link to={localizePath(`/trade/${item.name}`, language)}>
                  {item.name.replace('_', '/')}
                </Link>
              </td>
              <td>{item.market.price}</td>
              <td className={item.market.change.startsWith('-') ? styles.sell : styles.buy}>
                {item.market.change}%
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
