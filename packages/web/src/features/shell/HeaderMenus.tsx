import type { SessionUser } from '@lattice/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import { Menu } from '../../ui/Menu';
import { KycBadge } from './KycBadge';
import {
  lttLinks,
  type NavLink,
  ordersLinks,
  tradeLinks,
  userLinks,
  walletLinks,
} from './navLinks';
import { useLogout } from './useLogout';

function LinkMenu({ label, links }: { label: string; links: readonly NavLink[] }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <Menu label={label}>
      {links.map((link) => (
        <Link key={link.to} to={to(link.to)}>
          {t(`nav.${link.label}`)}
        </Link>
      ))}
    </Menu>
  );
}

export function TradeMenu() {
  const { t } = useTranslation();
  return <LinkMenu label={t('nav.trade')} links={tradeLinks} />;
}

export function LttMenu() {
  const { t } = useTranslation();
  return <LinkMenu label={t('nav.ltt')} links={lttLinks} />;
}

export function WalletMenu() {
  const { t } = useTranslation();
  return <LinkMenu label={t('nav.wallet')} links={walletLinks} />;
}

export function OrdersMenu() {
  const { t } = useTranslation();
  return <LinkMenu label={t('nav.orders')} links={ordersLinks} />;
}

/** The signed-in user's menu: account pages, the KYC status and sign-out. */
export function UserMenu({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const logout = useLogout();
  return (
    <Menu label={user.nickname || t('nav.account')} ariaLabel={t('nav.userMenu')} align="end">
      <span title={user.email}>
        <Link to={to(user.kyc === 'unverified' ? '/user/verification' : '/user/profile')}>
          <KycBadge kyc={user.kyc} />
        </Link>
      </span>
      {userLinks.map((link) => (
        <Link key={link.to} to={to(link.to)}>
          {t(`nav.${link.label}`)}
        </Link>
      ))}
      <button type="button" onClick={() => void logout()}>
        {t('nav.logout')}
      </button>
    </Menu>
  );
}
