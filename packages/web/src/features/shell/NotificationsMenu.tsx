import { useTranslation } from 'react-i18next';
import { useStore } from '../../lib/store';
import { Menu } from '../../ui/Menu';
import { finishedOrdersStore } from './finishedOrders';
import { finishedOrderText } from './finishedOrderText';
import styles from './Header.module.css';

/** The last finished orders (SPEC.md §4 keeps five), newest first. */
export function NotificationsMenu() {
  const { t } = useTranslation();
  const orders = useStore(finishedOrdersStore);
  const label = (
    <span className={styles.bell}>
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <path
          d="M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15L6 16Zm4 4h4"
          stroke="currentColor"
          strokeWidth="1.8"
          fill="none"
          strokeLinejoin="round"
        />
      </svg>
      {orders.length > 0 && <span className={styles.count}>{orders.length}</span>}
    </span>
  );
  return (
    <Menu label={label} ariaLabel={t('notifications.title')} align="end">
      {orders.length === 0 ? (
        <p className={styles.menuNote}>{t('notifications.empty')}</p>
      ) : (
        orders.map((order) => (
          <p key={order.id} className={styles.menuNote}>
            {finishedOrderText(t, order)}
          </p>
        ))
      )}
    </Menu>
  );
}
