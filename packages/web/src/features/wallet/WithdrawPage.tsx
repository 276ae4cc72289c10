import type { WithdrawalJson } from '@lattice/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import { Page } from '../../ui/Page';
import { Badge, Panel } from '../../ui/Panel';
import { truncateAmount } from './amounts';
import { CancelWithdrawalButton } from './CancelWithdrawalButton';
import { CurrencyPageState } from './CurrencyPageState';
import { RecentRecordsPanel } from './RecentRecordsPanel';
import { isFinished, statusKey, statusTone } from './status';
import { useBalance } from './useBalances';
import { WithdrawForm } from './WithdrawForm';
import styles from './wallet.module.css';
import { walletApi, walletKeys } from './walletApi';

/** While the last withdrawal is under way, its status is asked for this often. */
export const withdrawalPollMs = 3000;
const recentCount = 10;

/** USD amounts show in cents. */
const usdDecimals = 2;

/** What the user may still withdraw today and this week (SPEC.md §6). */
function LimitFacts() {
  const { t } = useTranslation();
  const limit = useQuery({
    queryKey: walletKeys.withdrawLimit,
    queryFn: walletApi.withdrawLimit,
    staleTime: 10_000,
  });
  if (!limit.data) return null;
  const { level, usdLeftToday, usdPerDay, btcLeftThisWeek, btcPerWeek } = limit.data;
  return (
    <dl className={styles.facts} data-testid="withdraw-limits">
      <dt>{t('wallet.withdraw.level')}</dt>
      <dd>{t(`wallet.withdraw.levels.${level}`)}</dd>
      <dt>{t('wallet.withdraw.leftToday')}</dt>
      <dd>
        {truncateAmount(usdLeftToday, usdDecimals)} / {usdPerDay} USD
      </dd>
      {btcLeftThisWeek !== null && btcPerWeek !== null && (
        <>
          <dt>{t('wallet.withdraw.leftThisWeek')}</dt>
          <dd>
            {btcLeftThisWeek} / {btcPerWeek} BTC
          </dd>
        </>
      )}
    </dl>
  );
}

/** Withdrawal: the form, then the request's status as it moves, and the latest requests. */
export default function WithdrawPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const ticker = (useParams().ticker ?? '').toUpperCase();
  const { balance, isPending, isError } = useBalance(ticker);
  const data = useQuery({
    queryKey: walletKeys.withdrawalData(ticker),
    queryFn: () => walletApi.withdrawalData(ticker),
  });
  const [created, setCreated] = useState<WithdrawalJson | null>(null);
  const recent = useQuery({
    queryKey: [...walletKeys.history, 'withdraw', ticker, 'recent', recentCount],
    queryFn: () => walletApi.withdrawals({ ticker }, 0, recentCount),
    refetchInterval: (query) =>
      query.state.data?.records.some((row) => !isFinished(row.status)) ? withdrawalPollMs : false,
    staleTime: 0,
  });
  const latest = created
    ? (recent.data?.records.find((row) => row.id === created.id) ?? created)
    : null;

  const title = t('wallet.withdraw.title', { ticker });
  if (isPending || data.isPending) {
    return <CurrencyPageState title={title} ticker={ticker} loading />;
  }
  const methods = data.data?.paymentList ?? [];
  if (isError || data.isError || !balance || methods.length === 0) {
    return <CurrencyPageState title={title} ticker={ticker} loading={false} />;
  }

  return (
    <Page title={title}>
      <div className={styles.columns}>
        <Panel>
          {data.data?.enabled === false ? (
            <p className={styles.warning}>{t('wallet.messages.disabled', { value: ticker })}</p>
          ) : (
            <WithdrawForm balance={balance} methods={methods} onCreated={setCreated} />
          )}
        </Panel>
        <div>
          {latest && (
            <Panel title={t('wallet.withdraw.request')}>
              <dl className={styles.facts} data-testid="withdraw-result">
                <dt>{t('wallet.columns.status')}</dt>
                <dd>
                  <Badge tone={statusTone(latest.status)}>
                    <span data-testid="withdraw-status">{t(statusKey(latest.status))}</span>
                  </Badge>
                </dd>
                <dt>{t('wallet.amount')}</dt>
                <dd>
                  {latest.amount} {latest.ticker}
                </dd>
                <dt>{t('wallet.columns.fee')}</dt>
                <dd>
                  {latest.fee} {latest.ticker}
                </dd>
                <dt>{t('wallet.columns.address')}</dt>
                <dd className={styles.mono}>{latest.address}</dd>
                {latest.reason && (
                  <>
                    <dt>{t('wallet.columns.reason')}</dt>
                    <dd>{latest.reason}</dd>
                  </>
                )}
                {latest.cancellable && (
                  <>
                    <dt />
                    <dd>
                      <CancelWithdrawalButton withdrawal={latest} />
                    </dd>
                  </>
                )}
                {latest.txHash && (
                  <>
                    <dt>{t('wallet.columns.txHash')}</dt>
                    <dd className={styles.mono}>{latest.txHash}</dd>
                  </>
                )}
              </dl>
            </Panel>
          )}
          <Panel title={t('wallet.withdraw.limits')}>
            <LimitFacts />
            <p className={styles.note}>{t('wallet.withdraw.limitsText')}</p>
            <Link to={to('/user/address-management')}>{t('routes.addressManagement')}</Link>
          </Panel>
        </div>
      </div>
      <RecentRecordsPanel
        title={t('wallet.withdraw.recent')}
        kind="withdraw"
        rows={recent.data?.records}
        status={recent.status}
      />
    </Page>
  );
}
