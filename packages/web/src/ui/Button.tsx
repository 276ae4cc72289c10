import type { ButtonHTMLAttributes } from 'react';
import styles from './controls.module.css';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: 's' | 'm' | 'l';
  /** Shows a spinner and blocks clicks while an action runs. */
  loading?: boolean;
  block?: boolean;
}

export function Button({
  variant = 'primary',
  size = 'm',
  loading = false,
  block = false,
  className,
  disabled,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  const classes = [
    styles.button,
    styles[variant],
    styles[`size-${size}`],
    block ? styles.block : '',
    className ?? '',
  ].join(' ');
  return (
    <button
      {...rest}
      type={type}
      className={classes}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading && <span className={styles.spinner} aria-hidden="true" />}
      {children}
    </button>
  );
}
