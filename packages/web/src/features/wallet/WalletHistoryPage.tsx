import type {
  DepositJson,
  Page as ListPage,
  VoucherJson,
  WithdrawalJson,
} from '@lattice/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { splitLanguage } from '../../i18n/languages';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/Field';
import { Page } from '../../ui/Page';
import { Badge, StateMessage } from '../../ui/Panel';
import { downloadCsv, toCsv } from './csv';
import { RecordsTable, useDateTime } from './RecordsTable';
import { statusKey, transactionStatuses } from './status';
import { useBalances } from './useBalances';
import styles from './wallet.module.css';
import { walletApi, walletKeys } from './walletApi';

export type WalletHistoryKind = 'deposit' | 'withdraw' | 'codes';

export const walletHistoryPageSize = 20;

const titles: Record<WalletHistoryKind, string> = {
  deposit: 'routes.historyDeposit',
  withdraw: 'routes.historyWithdraw',
  codes: 'routes.historyCodes',
};

function kindOf(path: string): WalletHistoryKind {
  if (path.endsWith('/withdraw')) return 'withdraw';
  return path.endsWith('/codes') ? 'codes' : 'deposit';
}

type AnyPage = ListPage<DepositJson> | ListPage<WithdrawalJson> | ListPage<VoucherJson>;

function fetchPage(kind: WalletHistoryKind, ticker: string, status: string, offset: number) {
  const size = walletHistoryPageSize;
  if (kind === 'deposit') return walletApi.deposits(ticker, offset, size);
  if (kind === 'withdraw') return walletApi.withdrawals(ticker, status, offset, size);
  return walletApi.codes('history', ticker, offset, size);
}

/** The CSV of one page of a list, for the lists the server does not export. */
function csvOf(kind: WalletHistoryKind, page: AnyPage): string {
  if (kind === 'codes') {
    const rows = (page.records as VoucherJson[]).map((row) => [
      row.date,
      row.code,
      row.ticker,
      row.amount,
      row.status,
      row.isOwn ? 'created' : 'redeemed',
    ]);
    return toCsv(['date', 'code', 'ticker', 'amount', 'status', 'role'], rows);
  }
  const rows = (page.records as DepositJson[]).map((row) => [
    row.createdAt,
    row.ticker,
    row.network,
    row.amount,
    row.status,
    row.address,
    row.memo,
    row.txHash,
    row.confirmations,
  ]);
  return toCsv(
    [
      'createdAt',
      'ticker',
      'network',
      'amount',
      'status',
      'address',
      'memo',
      'txHash',
      'confirmations',
    ],
    rows,
  );
}

/** The server's CSV of the withdrawal list with these filters. */
function withdrawCsvUrl(ticker: string, status: string): string {
  const params = new URLSearchParams({ format: 'csv', limit: '100' });
  if (ticker) params.set('ticker', ticker);
  if (status) params.set('status', status);
  return `/api/v2/withdraw_history?${params}`;
}

function CodesTable({ rows }: { rows: readonly VoucherJson[] }) {
  const { t } = useTranslation();
  const dateTime = useDateTime();
  const tone = { active: 'main', activated: 'green', canceled: 'grey' } as const;
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th>{t('wallet.columns.time')}</th>
            <th>{t('wallet.codes.code')}</th>
            <th>{t('wallet.columns.asset')}</th>
            <th>{t('wallet.amount')}</th>
            <th>{t('wallet.columns.status')}</th>
            <th>{t('wallet.codes.role')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.code} data-testid="codes-row">
              <td>{dateTime(row.date)}</td>
              <td className={styles.code}>{row.code}</td>
              <td>{row.ticker}</td>
              <td>{row.amount}</td>
              <td>
                <Badge tone={tone[row.status]}>{t(`wallet.codes.statuses.${row.status}`)}</Badge>
              </td>
              <td>{t(row.isOwn ? 'wallet.codes.roleCreated' : 'wallet.codes.roleRedeemed')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Deposit, withdrawal and code history: currency and status filters, pages and export. */
export default function WalletHistoryPage() {
  const { t } = useTranslation();
  const kind = kindOf(splitLanguage(useLocation().pathname).path);
  const balances = useBalances();
  const [ticker, setTicker] = useState('');
  const [status, setStatus] = useState('');
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: [...walletKeys.history, kind, ticker, status, offset],
    queryFn: () => fetchPage(kind, ticker, status, offset) as Promise<AnyPage>,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const filter = (set: (value: string) => void) => (value: string) => {
    set(value);
    setOffset(0);
  };
  const reset = () => {
    setTicker('');
    setStatus('');
    setOffset(0);
  };
  const page = list.data;
  const pages = page ? Math.max(1, Math.ceil(page.total / walletHistoryPageSize)) : 1;
  const current = Math.floor(offset / walletHistoryPageSize) + 1;
  const tickers = (balances.data ?? [])
    .filter((row) => kind === 'codes' || !row.isFiat)
    .map((row) => row.ticker);

  return (
    <Page title={t(titles[kind])}>
      <div className={styles.toolbar} data-testid="wallet-history-filters">
        <SelectField
          label={t('wallet.history.currency')}
          value={ticker}
          options={[
            { value: '', label: t('wallet.history.all') },
            ...tickers.map((value) => ({ value, label: value })),
          ]}
          onChange={(event) => filter(setTicker)(event.target.value)}
        />
        {kind === 'withdraw' && (
          <SelectField
            label={t('wallet.columns.status')}
            value={status}
            options={[
              { value: '', label: t('wallet.history.all') },
              ...transactionStatuses.map((code) => ({
                value: String(code),
                label: t(statusKey(code)),
              })),
            ]}
            onChange={(event) => filter(setStatus)(event.target.value)}
          />
        )}
        <Button variant="secondary" onClick={reset}>
          {t('wallet.history.reset')}
        </Button>
        {kind === 'withdraw' ? (
          <a href={withdrawCsvUrl(ticker, status)} download>
            {t('wallet.history.export')}
          </a>
        ) : (
          <Button
            variant="ghost"
            disabled={!page || page.records.length === 0}
            onClick={() => page && downloadCsv(`${kind}-history.csv`, csvOf(kind, page))}
          >
            {t('wallet.history.export')}
          </Button>
        )}
      </div>
      {kind === 'codes' ? (
        list.isPending ? (
          <StateMessage kind="loading">{t('wallet.loading')}</StateMessage>
        ) : list.isError ? (
          <StateMessage kind="error">{t('wallet.loadFailed')}</StateMessage>
        ) : page && page.records.length > 0 ? (
          <CodesTable rows={page.records as VoucherJson[]} />
        ) : (
          <div className={styles.empty}>{t('wallet.noItems')}</div>
        )
      ) : (
        <RecordsTable
          kind={kind}
          rows={page?.records as (DepositJson | WithdrawalJson)[] | undefined}
          status={list.status}
        />
      )}
      {page && page.total > walletHistoryPageSize && (
        <nav className={styles.paging} aria-label={t('wallet.history.pages')}>
          <Button
            variant="secondary"
            size="s"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - walletHistoryPageSize))}
          >
            {t('wallet.history.previous')}
          </Button>
          <span data-testid="wallet-history-page">
            {t('wallet.history.pageOf', { page: current, pages })}
          </span>
          <Button
            variant="secondary"
            size="s"
            disabled={current >= pages}
            onClick={() => setOffset(offset + walletHistoryPageSize)}
          >
            {t('wallet.history.next')}
          </Button>
        </nav>
      )}
    </Page>
  );
}
