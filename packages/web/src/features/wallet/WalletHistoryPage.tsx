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
import { SelectField, TextField } from '../../ui/Field';
import { Page } from '../../ui/Page';
import { Badge } from '../../ui/Panel';
import { downloadCsv, toCsv } from './csv';
import { ListPlaceholder } from './ListPlaceholder';
import { RecordsTable, useDateTime } from './RecordsTable';
import { statusKey, transactionStatuses } from './status';
import { useBalances } from './useBalances';
import { WalletTable } from './WalletTable';
import styles from './wallet.module.css';
import { type RecordFilters, recordsQuery, walletApi, walletKeys } from './walletApi';

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

interface Filters {
  ticker: string;
  status: string;
  /** yyyy-mm-dd from the date inputs; '' when open. */
  from: string;
  to: string;
}

const emptyFilters: Filters = { ticker: '', status: '', from: '', to: '' };
const daySeconds = 86_400;

function secondsOf(day: string, endOfDay: boolean): number | undefined {
  if (!day) return undefined;
  const start = Date.parse(`${day}T00:00:00Z`) / 1000;
  return endOfDay ? start + daySeconds - 1 : start;
}

function recordFilters(filters: Filters): RecordFilters {
  return {
    ticker: filters.ticker,
    status: filters.status,
    from: secondsOf(filters.from, false),
    to: secondsOf(filters.to, true),
  };
}

function fetchPage(kind: WalletHistoryKind, filters: Filters, offset: number) {
  const size = walletHistoryPageSize;
  if (kind === 'deposit') return walletApi.deposits(recordFilters(filters), offset, size);
  if (kind === 'withdraw') return walletApi.withdrawals(recordFilters(filters), offset, size);
  return walletApi.codes('history', filters.ticker, offset, size);
}

/** The CSV of a page of codes, which the server does not export. */
function codesCsv(page: ListPage<VoucherJson>): string {
  const rows = page.records.map((row) => [
    row.date,
    row.code,
    row.ticker,
    row.amount,
    row.status,
    row.isOwn ? 'created' : 'redeemed',
  ]);
  return toCsv(['date', 'code', 'ticker', 'amount', 'status', 'role'], rows);
}

const csvPaths = { deposit: '/v2/deposit_history', withdraw: '/v2/withdraw_history' } as const;

/** The server's CSV of a deposit or withdrawal list with these filters (its first 100 rows). */
function csvUrl(kind: 'deposit' | 'withdraw', filters: Filters): string {
  const params = new URLSearchParams({ format: 'csv' });
  for (const [name, value] of Object.entries(recordsQuery(recordFilters(filters), 0, 100))) {
    if (value !== undefined) params.set(name, String(value));
  }
  return `/api${csvPaths[kind]}?${params}`;
}

function CodesTable({ rows }: { rows: readonly VoucherJson[] }) {
  const { t } = useTranslation();
  const dateTime = useDateTime();
  const tone = { active: 'main', activated: 'green', canceled: 'grey' } as const;
  return (
    <WalletTable
      columns={[
        'wallet.columns.time',
        'wallet.codes.code',
        'wallet.columns.asset',
        'wallet.amount',
        'wallet.columns.status',
        'wallet.codes.role',
      ]}
    >
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
    </WalletTable>
  );
}

/** Deposit, withdrawal and code history: currency and status filters, pages and export. */
export default function WalletHistoryPage() {
  const { t } = useTranslation();
  const kind = kindOf(splitLanguage(useLocation().pathname).path);
  const balances = useBalances();
  const [filters, setFilters] = useState<Filters>(emptyFilters);
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: [...walletKeys.history, kind, filters, offset],
    queryFn: () => fetchPage(kind, filters, offset) as Promise<AnyPage>,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const set = (name: keyof Filters, value: string) => {
    setFilters((current) => ({ ...current, [name]: value }));
    setOffset(0);
  };
  const reset = () => {
    setFilters(emptyFilters);
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
          value={filters.ticker}
          options={[
            { value: '', label: t('wallet.history.all') },
            ...tickers.map((value) => ({ value, label: value })),
          ]}
          onChange={(event) => set('ticker', event.target.value)}
        />
        {kind !== 'codes' && (
          <SelectField
            label={t('wallet.columns.status')}
            value={filters.status}
            options={[
              { value: '', label: t('wallet.history.all') },
              ...transactionStatuses.map((code) => ({
                value: String(code),
                label: t(statusKey(code)),
              })),
            ]}
            onChange={(event) => set('status', event.target.value)}
          />
        )}
        {kind !== 'codes' && (
          <>
            <TextField
              type="date"
              label={t('wallet.history.from')}
              value={filters.from}
              onChange={(event) => set('from', event.target.value)}
            />
            <TextField
              type="date"
              label={t('wallet.history.to')}
              value={filters.to}
              onChange={(event) => set('to', event.target.value)}
            />
          </>
        )}
        <Button variant="secondary" onClick={reset}>
          {t('wallet.history.reset')}
        </Button>
        {kind !== 'codes' ? (
          <a href={csvUrl(kind, filters)} download>
            {t('wallet.history.export')}
          </a>
        ) : (
          <Button
            variant="ghost"
            disabled={!page || page.records.length === 0}
            onClick={() =>
              page && downloadCsv('codes-history.csv', codesCsv(page as ListPage<VoucherJson>))
            }
          >
            {t('wallet.history.export')}
          </Button>
        )}
      </div>
      {kind === 'codes' ? (
        list.isSuccess && page && page.records.length > 0 ? (
          <CodesTable rows={page.records as VoucherJson[]} />
        ) : (
          <ListPlaceholder status={list.status} />
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
