import styles from './RootLayout.module.css';

/** Shown while the first page's data loads; the text is English, as no language is loaded yet. */
export function Splash() {
  return (
    <div className={styles.splash} role="status" aria-label="Loading">
      <span className={styles.splashMark} />
    </div>
  );
}
