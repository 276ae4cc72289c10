import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import styles from './account.module.css';

const sections = [
  { to: '/user/profile', label: 'nav.profile' },
  { to: '/user/security-main', label: 'nav.security' },
  { to: '/user/settings', label: 'nav.settings' },
  { to: '/user/api', label: 'nav.apiManager' },
] as const;

/** The account screens' frame: their own menu beside the content. */
export function AccountPage({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <div className={styles.layout}>
      <nav className={styles.side} aria-label={t('account.menu')}>
        {sections.map((section) => (
          <NavLink
            key={section.to}
            to={to(section.to)}
            className={({ isActive }) => (isActive ? styles.active : undefined)}
          >
            {t(section.label)}
          </NavLink>
        ))}
      </nav>
      <div className={styles.content}>
        <h1>{title}</h1>
        {children}
      </div>
    </div>
  );
}
