import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FinishedOrders, OwnTrades } from './AccountHistory';
import { OpenOrders } from './OpenOrders';
import styles from './trade.module.css';
import { openOrdersQuery } from './tradeApi';

type AccountTab = 'open' | 'orders' | 'trades';
const tabs: readonly AccountTab[] = ['open', 'orders', 'trades'];

/** The signed-in user's side of the pair: open orders, order history and trade history. */
export function AccountTabs({ pair }: { pair: string }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<AccountTab>('open');
  const openCount = useQuery(openOrdersQuery(pair)).data?.records.length ?? 0;
  const label = (name: AccountTab) =>
    name === 'open'
      ? `${t('trade.openOrders')} (${openCount})`
      : t(name === 'orders' ? 'trade.orderHistory' : 'trade.tradeHistory');
  return (
    <section className={`${styles.panel} ${styles.orders}`} aria-label={t('trade.openOrders')}>
      <div className={styles.tabs} role="tablist">
        {tabs.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={`${styles.tab} ${tab === name ? styles.tabActive : ''}`}
            onClick={() => setTab(name)}
          >
            {label(name)}
          </button>
        ))}
      </div>
      {tab === 'open' && <OpenOrders pair={pair} />}
      {tab === 'orders' && <FinishedOrders pair={pair} />}
      {tab === 'trades' && <OwnTrades pair={pair} />}
    </section>
  );
}
