import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './wallet.module.css';

/**
 * A wallet table in its scrolling frame: one header cell per translation key of `columns`, then
 * the body rows given as children.
 */
export function WalletTable({
  columns,
  children,
}: {
  columns: readonly string[];
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <thead>
          <tr>
            {columns.map((key) => (
              <th key={key}>{t(key)}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
