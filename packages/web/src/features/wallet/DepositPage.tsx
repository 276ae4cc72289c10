import type { DepositJson } from '@lattice/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/apiError';
import { useLocalePath } from '../../i18n/useLanguage';
import { responseNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { Page } from '../../ui/Page';
import { Panel, StateMessage } from '../../ui/Panel';
import { CopyButton } from './CopyButton';
import { CurrencyPageState } from './CurrencyPageState';
import { NetworkSelect } from './NetworkSelect';
import { QrCode } from './QrCode';
import { RecentRecordsPanel } from './RecentRecordsPanel';
import { isFinished } from './status';
import { useBalance } from './useBalances';
import styles from './wallet.module.css';
import { walletApi, walletKeys } from './walletApi';
import { walletMessage } from './walletMessages';

/** While a deposit waits for confirmations, the page asks for news this often; else less. */
export const depositPollMs = { pending: 3000, idle: 10_000 } as const;
const recentCount = 10;

function hasPending(records: readonly DepositJson[] | undefined): boolean {
  return (records ?? []).some((record) => !isFinished(record.status));
}

/** Deposit: the network, the address with its QR code and memo, and incoming deposits. */
export default function DepositPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const queryClient = useQueryClient();
  const ticker = (useParams().ticker ?? '').toUpperCase();
  const { balance } = useBalance(ticker);
  const data = useQuery({
    queryKey: walletKeys.depositData(ticker),
    queryFn: () => walletApi.depositData(ticker),
  });
  const methods = data.data?.paymentList ?? [];
  const [chosen, setChosen] = useState('');
  const network = chosen || methods[0]?.key || '';
  const method = methods.find((candidate) => candidate.key === network);
  const address = useQuery({
    queryKey: walletKeys.address(ticker, network),
    queryFn: () => walletApi.address(ticker, network),
    enabled: network !== '' && data.data?.enabled === true,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const deposits = useQuery({
    queryKey: [...walletKeys.history, 'deposit', ticker, 'recent', recentCount],
    queryFn: () => walletApi.deposits({ ticker }, 0, recentCount),
    refetchInterval: (query) =>
      hasPending(query.state.data?.records) ? depositPollMs.pending : depositPollMs.idle,
    staleTime: 0,
  });
  // A deposit that finished since the last answer changes the balance shown beside it.
  const finished = deposits.data?.records
    .filter((record) => isFinished(record.status))
    .map((record) => record.id)
    .join(',');
  const finishedBefore = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (finished === undefined) return;
    if (finishedBefore.current !== undefined && finishedBefore.current !== finished) {
      void queryClient.invalidateQueries({ queryKey: walletKeys.balances });
    }
    finishedBefore.current = finished;
  }, [finished, queryClient]);
  const newAddress = useMutation({
    mutationFn: () => walletApi.newAddress(ticker, network),
    onSuccess: (next) => queryClient.setQueryData(walletKeys.address(ticker, network), next),
    onError: (error) => {
      if (isApiError(error)) responseNotice(walletMessage(error.firstMessage, t));
    },
  });

  const title = t('wallet.deposit.title', { ticker });
  if (data.isPending) return <CurrencyPageState title={title} ticker={ticker} loading />;
  if (data.isError || methods.length === 0) {
    return <CurrencyPageState title={title} ticker={ticker} loading={false} />;
  }

  return (
    <Page title={title}>
      <div className={styles.columns}>
        <Panel title={t('wallet.deposit.address')}>
          {!data.data.enabled && (
            <p className={styles.warning}>{t('wallet.messages.disabled', { value: ticker })}</p>
          )}
          <NetworkSelect methods={methods} value={network} onChange={setChosen} />
          {method && (
            <p className={styles.note}>
              {t('wallet.deposit.confirmationsNote', {
                blocks: String(method.confirmations),
                network: method.name,
              })}
            </p>
          )}
          {address.isPending && data.data.enabled && (
            <StateMessage kind="loading">{t('wallet.loading')}</StateMessage>
          )}
          {address.isError && (
            <StateMessage kind="error">
              {t('wallet.deposit.addressFailed', { ticker })}
            </StateMessage>
          )}
          {address.data && (
            <div className={styles.address}>
              <QrCode text={address.data.address} label={t('wallet.deposit.qr', { ticker })} />
              <div className={styles.addressText}>
                <dl className={styles.facts}>
                  <dt>{t('wallet.columns.address')}</dt>
                  <dd className={styles.mono} data-testid="deposit-address">
                    {address.data.address}
                  </dd>
                  {address.data.memo && (
                    <>
                      <dt>{t('wallet.memo')}</dt>
                      <dd className={styles.mono} data-testid="deposit-memo">
                        {address.data.memo}
                      </dd>
                    </>
                  )}
                </dl>
                <div className={styles.actions} style={{ justifyContent: 'flex-start' }}>
                  <CopyButton text={address.data.address} label={t('wallet.deposit.copyAddress')} />
                  {address.data.memo && (
                    <CopyButton text={address.data.memo} label={t('wallet.deposit.copyMemo')} />
                  )}
                  <Button
                    variant="ghost"
                    size="s"
                    loading={newAddress.isPending}
                    onClick={() => newAddress.mutate()}
                  >
                    {t('wallet.deposit.newAddress')}
                  </Button>
                </div>
              </div>
            </div>
          )}
          {address.data?.memo && (
            <p className={styles.warning} role="note" style={{ marginTop: 14 }}>
              {t('wallet.deposit.memoWarning')}
            </p>
          )}
          <p className={styles.note} style={{ marginTop: 14 }}>
            {t('wallet.deposit.onlyThis', { ticker, network: method?.name ?? network })}
          </p>
        </Panel>
        <Panel title={t('wallet.detail.balances')}>
          {balance ? (
            <dl className={styles.facts}>
              <dt>{t('wallet.columns.main')}</dt>
              <dd data-testid="deposit-main-balance">
                {balance.mainBalance} {ticker}
              </dd>
              <dt>{t('wallet.columns.total')}</dt>
              <dd>
                {balance.fullBalance} {ticker}
              </dd>
            </dl>
          ) : (
            <StateMessage kind="loading">{t('wallet.loading')}</StateMessage>
          )}
          <Link to={to(`/user/wallet/withdraw/${ticker}`)}>{t('wallet.actions.withdraw')}</Link>
        </Panel>
      </div>
      <RecentRecordsPanel
        title={t('wallet.deposit.incoming')}
        kind="deposit"
        rows={deposits.data?.records}
        status={deposits.status}
      />
    </Page>
  );
}
