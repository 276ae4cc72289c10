import { Link } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import styles from './Header.module.css';

/** The Lattice mark and name, linking to the front page. */
export function Logo({ label }: { label: string }) {
  const to = useLocalePath();
  return (
    <Link to={to('/')} className={styles.logo} aria-label={label}>
      <svg viewBox="0 0 32 32" width="30" height="30" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="var(--accent)" />
        <path
          d="M8 8v16h16M8 16h8v8M16 8v8h8M24 8v8"
          stroke="#fff"
          strokeWidth="2.4"
          fill="none"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className={styles.logoText}>Lattice</span>
    </Link>
  );
}
