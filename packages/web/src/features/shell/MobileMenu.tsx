import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSessionUser, useSystemParams } from '../../api/session';
import { useLocalePath } from '../../i18n/useLanguage';
import { KycBadge } from './KycBadge';
import { useLanguageLinks } from './LanguageSwitcher';
import styles from './MobileMenu.module.css';
import {
  buyLttPath,
  lttLinks,
  mobileExtraLinks,
  type NavLink,
  ordersLinks,
  tradeLinks,
  userLinks,
  walletLinks,
} from './navLinks';
import { useAuthLinksShown } from './useAuthLinksShown';
import { useLogout } from './useLogout';

function Section({ title, links }: { title: string; links: readonly NavLink[] }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <div className={styles.section}>
      <h3>{title}</h3>
      {links.map((link) => (
        <Link key={link.to} to={to(link.to)}>
          {t(`nav.${link.label}`)}
        </Link>
      ))}
    </div>
  );
}

/** The phone menu: every header menu plus referrals, buy crypto, support and languages. */
export function MobileMenu({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const user = useSessionUser();
  const params = useSystemParams();
  const authLinks = useAuthLinksShown();
  const languageLinks = useLanguageLinks();
  const logout = useLogout();

  useEffect(() => {
    const handleKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    document.addEventListener('keydown', handleKey);
    return () => document.removeEventListener('keydown', handleKey);
  }, [onClose]);

  return (
    <div className={styles.backdrop}>
      <button
        type="button"
        className={styles.scrim}
        tabIndex={-1}
        aria-label={t('common.close')}
        onClick={onClose}
      />
      <nav className={styles.drawer} aria-label={t('nav.mobileMenu')}>
        <div className={styles.top}>
          {user ? <KycBadge kyc={user.kyc} /> : <span />}
          <button
            type="button"
            className={styles.close}
            onClick={onClose}
            aria-label={t('common.close')}
          >
            ×
          </button>
        </div>
        {!user && (
          <div className={styles.auth}>
            {authLinks.signIn && <Link to={to('/login')}>{t('nav.signIn')}</Link>}
            {authLinks.signUp && <Link to={to('/register')}>{t('nav.signUp')}</Link>}
          </div>
        )}
        <div className={styles.section}>
          <Link to={to('/listing')}>{t('nav.listing')}</Link>
          <Link to={to(buyLttPath(params?.lttPair))}>{t('nav.buyLtt')}</Link>
        </div>
        <Section title={t('nav.trade')} links={tradeLinks} />
        {user && <Section title={t('nav.wallet')} links={walletLinks} />}
        {user && <Section title={t('nav.orders')} links={ordersLinks} />}
        <Section title={t('nav.ltt')} links={lttLinks} />
        <Section title={t('nav.more')} links={mobileExtraLinks} />
        {user && (
          <div className={styles.section}>
            <h3>{t('nav.account')}</h3>
            {userLinks.map((link) => (
              <Link key={link.to} to={to(link.to)}>
                {t(`nav.${link.label}`)}
              </Link>
            ))}
            <button type="button" onClick={() => void logout()}>
              {t('nav.logout')}
            </button>
          </div>
        )}
        <div className={styles.section}>
          <h3>{t('nav.language')}</h3>
          <div className={styles.languages}>
            {languageLinks.map((link) => (
              <Link key={link.language} to={link.to} lang={link.language}>
                {link.name}
              </Link>
            ))}
          </div>
        </div>
      </nav>
    </div>
  );
}
