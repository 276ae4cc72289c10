import type { DepositJson, WithdrawalJson } from '@lattice/contracts';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../ui/Panel';
import { CancelWithdrawalButton } from './CancelWithdrawalButton';
import { ListPlaceholder } from './ListPlaceholder';
import { statusKey, statusTone } from './status';
import { WalletTable } from './WalletTable';
import styles from './wallet.module.css';

export type RecordKind = 'deposit' | 'withdraw';
type WalletRecord = DepositJson | WithdrawalJson;

/** A time in Unix seconds, in the reader's language. */
export function useDateTime(): (seconds: number) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, {
    dateStyle: 'short',
    timeStyle: 'medium',
  });
  return (seconds) => format.format(new Date(seconds * 1000));
}

/** How far a pending deposit is, as a bar and "n / m". */
export function Confirmations({ record }: { record: DepositJson }) {
  const { t } = useTranslation();
  const required = Math.max(record.confirmationsRequired, 1);
  const done = Math.min(record.confirmations, required);
  return (
    <span className={styles.actions} style={{ alignItems: 'center' }}>
      <span
        className={styles.progress}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={required}
        aria-valuenow={done}
        aria-label={t('wallet.deposit.confirmations')}
      >
        <span style={{ width: `${(done / required) * 100}%` }} />
      </span>
      <span data-testid="deposit-confirmations">
        {done} / {required}
      </span>
    </span>
  );
}

function shortHash(hash: string): string {
  return hash.length > 18 ? `${hash.slice(0, 10)}…${hash.slice(-6)}` : hash;
}

/** Deposits or withdrawals (SPEC.md §3 "Deposit or withdrawal record") as a table. */
export function RecordsTable({
  kind,
  rows,
  status,
}: {
  kind: RecordKind;
  rows: readonly WalletRecord[] | undefined;
  status: 'pending' | 'error' | 'success';
}) {
  const { t } = useTranslation();
  const dateTime = useDateTime();
  if (status !== 'success' || !rows || rows.length === 0) {
    return <ListPlaceholder status={status} />;
  }
  return (
    <WalletTable
      columns={[
        'wallet.columns.time',
        'wallet.columns.asset',
        'wallet.columns.network',
        'wallet.amount',
        ...(kind === 'withdraw' ? ['wallet.columns.fee'] : []),
        'wallet.columns.status',
        ...(kind === 'deposit' ? ['wallet.deposit.confirmations'] : []),
        'wallet.columns.address',
        'wallet.columns.txHash',
      ]}
    >
      {rows.map((row) => (
        <tr key={row.id} data-testid={`${kind}-row`}>
          <td>{dateTime(row.createdAt)}</td>
          <td>{row.ticker}</td>
          <td>{row.network}</td>
          <td>{row.amount}</td>
          {kind === 'withdraw' && <td>{row.fee}</td>}
          <td>
            <Badge tone={statusTone(row.status)}>{t(statusKey(row.status))}</Badge>
            {'cancellable' in row && row.cancellable && <CancelWithdrawalButton withdrawal={row} />}
            {row.reason && (
              <div className={styles.asset}>
                <small>{row.reason}</small>
              </div>
            )}
          </td>
          {kind === 'deposit' && (
            <td>{'confirmations' in row && <Confirmations record={row} />}</td>
          )}
          <td className={styles.wrap}>
            <span className={styles.mono}>{row.address}</span>
            {row.memo && (
              <div className={styles.asset}>
                <small>
                  {t('wallet.memo')}: {row.memo}
                </small>
              </div>
            )}
          </td>
          <td>
            {row.txHash ? (
              row.explorerLink ? (
                <a href={row.explorerLink} target="_blank" rel="noreferrer" className={styles.mono}>
                  {shortHash(row.txHash)}
                </a>
              ) : (
                <span className={styles.mono}>{shortHash(row.txHash)}</span>
              )
            ) : (
              '—'
            )}
          </td>
        </tr>
      ))}
    </WalletTable>
  );
}
