import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSystemParams } from '../../api/session';
import { useLocalePath } from '../../i18n/useLanguage';
import { BackToTop } from './BackToTop';
import styles from './Footer.module.css';
import { Logo } from './Logo';
import type { NavLink } from './navLinks';

/** The year the exchange opened; the copyright runs from it to this year. */
export const foundedYear = 2018;

const columns: readonly { title: string; links: readonly NavLink[] }[] = [
  {
    title: 'exchange',
    links: [
      { to: '/exchange', label: 'fastExchange' },
      { to: '/trade', label: 'proSpot' },
      { to: '/trade_classic', label: 'classicSpot' },
      { to: '/fee-schedule', label: 'feeSchedule' },
      { to: '/codes', label: 'codes' },
    ],
  },
  {
    title: 'company',
    links: [
      { to: '/about-us', label: 'aboutUs' },
      { to: '/partnership', label: 'partnership' },
      { to: '/bug-bounty', label: 'bugBounty' },
      { to: '/social-media', label: 'socialMedia' },
      { to: '/referrals', label: 'referrals' },
    ],
  },
  {
    title: 'ltt',
    links: [
      { to: '/ltt-token', label: 'lttToken' },
      { to: '/staking-pool', label: 'stakingPool' },
      { to: '/ieo-list', label: 'ieoList' },
      { to: '/burning-stage', label: 'burningStage' },
      { to: '/trading-competition', label: 'competition' },
    ],
  },
  {
    title: 'listing',
    links: [
      { to: '/listing', label: 'listing' },
      { to: '/ieo-list-request', label: 'ieoRequest' },
    ],
  },
];

const bottomLinks: readonly NavLink[] = [
  { to: '/terms', label: 'terms' },
  { to: '/privacy-policy', label: 'privacyPolicy' },
  { to: '/faq', label: 'faq' },
];

export function Footer() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const socialLinks = Object.entries(useSystemParams()?.socialLinks ?? {});
  const year = new Date().getFullYear();
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <div className={styles.brand}>
          <Logo label={t('nav.home')} />
          <p>{t('footer.tagline')}</p>
          <h3>{t('footer.contacts')}</h3>
          <Link to={to('/user/support')}>{t('nav.support')}</Link>
          {socialLinks.length > 0 && (
            <div className={styles.social}>
              {socialLinks.map(([name, url]) => (
                <a key={name} href={url} target="_blank" rel="noreferrer" aria-label={name}>
                  {name.slice(0, 2).toUpperCase()}
                </a>
              ))}
            </div>
          )}
        </div>
        {columns.map((column) => (
          <nav
            key={column.title}
            className={styles.column}
            aria-label={t(`footer.${column.title}`)}
          >
            <h3>{t(`footer.${column.title}`)}</h3>
            {column.links.map((link) => (
              <Link key={link.to} to={to(link.to)}>
                {t(`nav.${link.label}`)}
              </Link>
            ))}
          </nav>
        ))}
      </div>
      <div className={styles.bottom}>
        <span>{t('footer.copyright', { from: foundedYear, to: year })}</span>
        <nav className={styles.bottomLinks} aria-label={t('footer.legal')}>
          {bottomLinks.map((link) => (
            <Link key={link.to} to={to(link.to)}>
              {t(`nav.${link.label}`)}
            </Link>
          ))}
        </nav>
        <BackToTop />
      </div>
    </footer>
  );
}
