import { useStore } from '../lib/store';
import styles from './overlay.module.css';
import { dismissToast, toastStore } from './toastStore';

/** The toasts, newest last; errors are announced at once, the rest politely. */
export function Toaster({ closeLabel }: { closeLabel: string }) {
  const toasts = useStore(toastStore);
  return (
    <div className={styles.toaster} aria-live="polite">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={`${styles.toast} ${styles[`toast-${toast.kind}`]}`}
          role={toast.kind === 'error' || toast.kind === 'warning' ? 'alert' : 'status'}
        >
          <div className={styles.toastText}>
            {toast.title && <strong>{toast.title}</strong>}
            <span>{toast.text}</span>
          </div>
          <button
            type="button"
            className={styles.close}
            onClick={() => dismissToast(toast.id)}
            aria-label={closeLabel}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
