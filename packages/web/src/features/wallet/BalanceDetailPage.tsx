import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import { Button } from '../../ui/Button';
import { Page } from '../../ui/Page';
import { Panel } from '../../ui/Panel';
import { CurrencyPageState } from './CurrencyPageState';
import { RecentRecordsPanel } from './RecentRecordsPanel';
import { TransferModal } from './TransferModal';
import styles from './wallet.module.css';
import { walletApi, walletKeys } from './walletApi';

const recentCount = 5;

/** One asset: its balances, BTC value, withdrawal limit, markets and latest movements. */
export default function BalanceDetailPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const ticker = (useParams().ticker ?? '').toUpperCase();
  const query = useQuery({
    queryKey: walletKeys.balance(ticker),
    queryFn: () => walletApi.balance(ticker),
    staleTime: 555,
  });
  const balance = query.data;
  const [transferring, setTransferring] = useState(false);
  const deposits = useQuery({
    queryKey: [...walletKeys.history, 'deposit', ticker, 'recent', recentCount],
    queryFn: () => walletApi.deposits({ ticker }, 0, recentCount),
    enabled: balance !== undefined,
  });
  const withdrawals = useQuery({
    queryKey: [...walletKeys.history, 'withdraw', ticker, 'recent', recentCount],
    queryFn: () => walletApi.withdrawals({ ticker }, 0, recentCount),
    enabled: balance !== undefined,
  });

  if (query.isPending) return <CurrencyPageState title={ticker} ticker={ticker} loading />;
  if (query.isError || !balance) {
    return <CurrencyPageState title={ticker} ticker={ticker} loading={false} />;
  }
  const facts: [string, string][] = [
    ['wallet.columns.total', balance.fullBalance],
    ['wallet.columns.main', balance.mainBalance],
    ['wallet.columns.trade', balance.tradeAvailable],
    ['wallet.columns.frozen', balance.tradeFreeze],
    ['wallet.columns.btcValue', `${balance.fullBalanceBtc} BTC`],
  ];
  if (balance.withdrawalLimit !== null) {
    facts.push(['wallet.detail.withdrawalLimit', balance.withdrawalLimit]);
  }

  return (
    <Page title={t('wallet.detail.title', { ticker, label: balance.label })}>
      <div className={styles.columns}>
        <Panel title={t('wallet.detail.balances')}>
          <dl className={styles.facts} data-testid="balance-facts">
            {facts.map(([key, value]) => (
              <div key={key} style={{ display: 'contents' }}>
                <dt>{t(key)}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <div className={styles.actions} style={{ justifyContent: 'flex-start' }}>
            {balance.isDepositOn && !balance.isFiat && (
              <Link to={to(`/user/wallet/deposit/${ticker}`)}>{t('wallet.actions.deposit')}</Link>
            )}
            {balance.isWithdrawOn && !balance.isFiat && (
              <Link to={to(`/user/wallet/withdraw/${ticker}`)}>{t('wallet.actions.withdraw')}</Link>
            )}
            <Button variant="secondary" size="s" onClick={() => setTransferring(true)}>
              {t('wallet.actions.transfer')}
            </Button>
          </div>
        </Panel>
        <Panel title={t('wallet.detail.markets')}>
          {balance.tradePairs.length === 0 ? (
            <p className={styles.empty}>{t('wallet.noItems')}</p>
          ) : (
            <div className={styles.actions} style={{ justifyContent: 'flex-start' }}>
              {balance.tradePairs.map((pair) => (
                <Link key={pair} to={to(`/trade/${pair}`)}>
                  {pair.replace('_', '/')}
                </Link>
              ))}
            </div>
          )}
        </Panel>
      </div>
      <RecentRecordsPanel
        title={t('wallet.detail.recentDeposits')}
        kind="deposit"
        rows={deposits.data?.records}
        status={deposits.status}
      />
      <RecentRecordsPanel
        title={t('wallet.detail.recentWithdrawals')}
        kind="withdraw"
        rows={withdrawals.data?.records}
        status={withdrawals.status}
      />
      {transferring && <TransferModal balance={balance} onClose={() => setTransferring(false)} />}
    </Page>
  );
}
