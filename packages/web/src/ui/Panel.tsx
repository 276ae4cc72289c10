import type { ReactNode } from 'react';
import styles from './layout.module.css';

/** A titled block of a page. */
export function Panel({
  title,
  actions,
  children,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className={styles.panel}>
      {(title || actions) && (
        <div className={styles.panelHeader}>
          {title && <h2>{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

/** Loading, empty and error states, worded by the caller. */
export function StateMessage({
  kind,
  children,
  action,
}: {
  kind: 'loading' | 'empty' | 'error';
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div
      className={`${styles.state} ${kind === 'error' ? styles.stateError : ''}`}
      role={kind === 'error' ? 'alert' : 'status'}
      aria-busy={kind === 'loading' || undefined}
    >
      {kind === 'loading' && <span className={styles.loader} aria-hidden="true" />}
      <span>{children}</span>
      {action}
    </div>
  );
}

/** A status label in one of the spec's colours (SPEC.md §9). */
export function Badge({
  tone,
  children,
}: {
  tone: 'green' | 'red' | 'main' | 'grey';
  children: ReactNode;
}) {
  return <span className={`${styles.badge} ${styles[`badge-${tone}`]}`}>{children}</span>;
}
