import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import { Checkbox, TextField } from '../../ui/Field';
import { Page } from '../../ui/Page';
import { Panel, StateMessage } from '../../ui/Panel';
import { addAmounts, isZero } from './amounts';
import { TransferModal } from './TransferModal';
import { useBalances } from './useBalances';
import styles from './wallet.module.css';
import type { WalletBalance } from './walletApi';

/** Rows whose ticker or name holds `search`, without the empty ones when asked. */
export function visibleBalances(
  rows: readonly WalletBalance[],
  search: string,
  hideZero: boolean,
): WalletBalance[] {
  const needle = search.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (!hideZero || !isZero(row.fullBalance)) &&
      (needle === '' ||
        row.ticker.toLowerCase().includes(needle) ||
        row.label.toLowerCase().includes(needle)),
  );
}

/** The wallet: every asset's main, trade and frozen balance, its BTC value, and what to do. */
export default function WalletListPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const balances = useBalances();
  const [search, setSearch] = useState('');
  const [hideZero, setHideZero] = useState(false);
  const [transferring, setTransferring] = useState<WalletBalance | null>(null);
  const rows = visibleBalances(balances.data ?? [], search, hideZero);
  const totalBtc = (balances.data ?? []).reduce(
    (sum, row) => addAmounts(sum, row.fullBalanceBtc),
    '0',
  );

  return (
    <Page title={t('routes.walletList')}>
      <div className={styles.summary}>
        <span>
          {t('wallet.list.estimated')}{' '}
          <strong data-testid="wallet-total-btc">{totalBtc} BTC</strong>
        </span>
        <Link to={to('/codes')}>{t('routes.codes')}</Link>
        <Link to={to('/user/address-management')}>{t('routes.addressManagement')}</Link>
        <Link to={to('/history/deposit')}>{t('routes.historyDeposit')}</Link>
        <Link to={to('/history/withdraw')}>{t('routes.historyWithdraw')}</Link>
      </div>
      <Panel>
        <div className={styles.toolbar}>
          <TextField
            label={t('wallet.list.search')}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
          <Checkbox
            label={t('wallet.list.hideZero')}
            checked={hideZero}
            onChange={(event) => setHideZero(event.target.checked)}
          />
        </div>
        {balances.isPending && <StateMessage kind="loading">{t('wallet.loading')}</StateMessage>}
        {balances.isError && <StateMessage kind="error">{t('wallet.loadFailed')}</StateMessage>}
        {balances.isSuccess && (
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th>{t('wallet.columns.asset')}</th>
                  <th>{t('wallet.columns.total')}</th>
                  <th>{t('wallet.columns.main')}</th>
                  <th>{t('wallet.columns.trade')}</th>
                  <th>{t('wallet.columns.frozen')}</th>
                  <th>{t('wallet.columns.btcValue')}</th>
                  <th>{t('wallet.columns.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.ticker} data-testid={`balance-${row.ticker}`}>
                    <td>
                      <Link to={to(`/user/balances/${row.ticker}`)} className={styles.asset}>
                        <strong>{row.ticker}</strong>
                        <small>{row.label}</small>
                      </Link>
                    </td>
                    <td>{row.fullBalance}</td>
                    <td>{row.mainBalance}</td>
                    <td>{row.tradeAvailable}</td>
                    <td>{row.tradeFreeze}</td>
                    <td>{row.fullBalanceBtc}</td>
                    <td>
                      <span className={styles.actions}>
                        {row.isDepositOn && !row.isFiat && (
                          <Link to={to(`/user/wallet/deposit/${row.ticker}`)}>
                            {t('wallet.actions.deposit')}
                          </Link>
                        )}
                        {row.isWithdrawOn && !row.isFiat && (
                          <Link to={to(`/user/wallet/withdraw/${row.ticker}`)}>
                            {t('wallet.actions.withdraw')}
                          </Link>
                        )}
                        <button
                          type="button"
                          className={styles.linkButton}
                          onClick={() => setTransferring(row)}
                        >
                          {t('wallet.actions.transfer')}
                        </button>
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {rows.length === 0 && <div className={styles.empty}>{t('wallet.noItems')}</div>}
          </div>
        )}
      </Panel>
      {transferring && (
        <TransferModal
          balance={balances.data?.find((row) => row.ticker === transferring.ticker) ?? transferring}
          onClose={() => setTransferring(null)}
        />
      )}
    </Page>
  );
}
