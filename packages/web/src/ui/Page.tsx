import type { ReactNode } from 'react';
import styles from './page.module.css';

/** A screen's frame: its heading and content at page width. */
export function Page({
  title,
  subtitle,
  width = 'wide',
  children,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  width?: 'narrow' | 'wide';
  children?: ReactNode;
}) {
  return (
    <div className={`${styles.page} ${width === 'narrow' ? styles.narrow : ''}`}>
      <h1>{title}</h1>
      {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
      {children}
    </div>
  );
}
