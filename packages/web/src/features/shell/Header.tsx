import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useSystemParams } from '../../api/session';
import { useLocalePath } from '../../i18n/useLanguage';
import styles from './Header.module.css';
import { LttMenu, OrdersMenu, TradeMenu, UserMenu, WalletMenu } from './HeaderMenus';
import { KycBadge } from './KycBadge';
import { LanguageSwitcher } from './LanguageSwitcher';
import { Logo } from './Logo';
import { MobileMenu } from './MobileMenu';
import { NotificationsMenu } from './NotificationsMenu';
import { buyLttPath } from './navLinks';
import { ThemeToggle } from './ThemeToggle';
import { useAuthLinksShown } from './useAuthLinksShown';

/** The header of every page: 90 px high, 75 px on phones (SPEC.md §2). */
export function Header() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const params = useSystemParams();
  const user = params?.user ?? null;
  const authLinks = useAuthLinksShown();
  const location = useLocation();
  // The mobile menu belongs to the page it was opened on: a new page closes it.
  const [mobileOpenOn, setMobileOpenOn] = useState<string | null>(null);
  const mobileOpen = mobileOpenOn === location.pathname;
  const defiLabUrl = params?.socialLinks?.defiLab;
  const messengerUrl = params?.socialLinks?.telegram;

  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Logo label={t('nav.home')} />
        <nav className={styles.mainNav} aria-label={t('nav.main')}>
          <Link to={to('/listing')} className={styles.navLink}>
            {t('nav.listing')}
          </Link>
          <TradeMenu />
          {defiLabUrl && (
            <a href={defiLabUrl} className={styles.navLink} target="_blank" rel="noreferrer">
              {t('nav.defiLab')}
            </a>
          )}
          <Link to={to(buyLttPath(params?.lttPair))} className={styles.navLink}>
            {t('nav.buyLtt')}
          </Link>
          <LttMenu />
        </nav>
        <div className={styles.actions}>
          {user && (
            <div className={styles.desktopOnly}>
              <WalletMenu />
              <OrdersMenu />
              <NotificationsMenu />
              <UserMenu user={user} />
            </div>
          )}
          {user && (
            <span className={styles.mobileBadge}>
              <KycBadge kyc={user.kyc} />
            </span>
          )}
          {!user && (
            <div className={styles.authLinks}>
              {authLinks.signIn && (
                <Link to={to('/login')} className={styles.signIn}>
                  {t('nav.signIn')}
                </Link>
              )}
              {authLinks.signUp && (
                <Link to={to('/register')} className={styles.signUp}>
                  {t('nav.signUp')}
                </Link>
              )}
            </div>
          )}
          {messengerUrl && (
            <a
              href={messengerUrl}
              className={`${styles.iconButton} ${styles.desktopOnly}`}
              target="_blank"
              rel="noreferrer"
              title={t('nav.supportMessenger')}
            >
              <span className="visually-hidden">{t('nav.supportMessenger')}</span>
              <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
                <path
                  d="M21 4 3 11l6 2 2 6 3-4 5 4 2-15Z"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.8"
                  strokeLinejoin="round"
                />
              </svg>
            </a>
          )}
          <div className={styles.desktopOnly}>
            <LanguageSwitcher />
          </div>
          <ThemeToggle />
          <button
            type="button"
            className={`${styles.iconButton} ${styles.burger}`}
            aria-label={t('nav.openMenu')}
            aria-expanded={mobileOpen}
            onClick={() => setMobileOpenOn(location.pathname)}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path
                d="M4 7h16M4 12h16M4 17h16"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            </svg>
          </button>
        </div>
      </div>
      {mobileOpen && <MobileMenu onClose={() => setMobileOpenOn(null)} />}
    </header>
  );
}
