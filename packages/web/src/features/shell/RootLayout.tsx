import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import type { RouteHandle } from '../../app/routes';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Toaster } from '../../ui/Toaster';
import { CookieBanner } from './CookieBanner';
import { Footer } from './Footer';
import { setFinishedOrderWording } from './finishedOrders';
import { finishedOrderText } from './finishedOrderText';
import { Header } from './Header';
import styles from './RootLayout.module.css';
import { useApiEvents } from './useApiEvents';

function useRouteHandle(): RouteHandle | undefined {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]?.handle as RouteHandle | undefined;
    if (handle) return handle;
  }
  return undefined;
}

/** Hash links scroll smoothly to their target (SPEC.md §2). */
function useHashScroll(): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    document
      .getElementById(decodeURIComponent(hash.slice(1)))
      ?.scrollIntoView({ behavior: 'smooth' });
  }, [hash]);
}

/** The frame of every page: header, the screen, footer, and the app-wide overlays. */
export function RootLayout() {
  const { t, i18n } = useTranslation();
  const handle = useRouteHandle();
  useApiEvents();
  useHashScroll();

  useEffect(() => {
    const appName = t('app.name');
    document.title = handle ? `${t(`routes.${handle.title}`)} — ${appName}` : appName;
  }, [handle, t]);

  useEffect(() => {
    setFinishedOrderWording({
      one: (order) => finishedOrderText(i18n.t, order),
      many: (count) => i18n.t('notifications.manyFinished', { count }),
    });
  }, [i18n]);

  return (
    <>
      <a className={styles.skipLink} href="#main">
        {t('nav.skipToContent')}
      </a>
      {handle?.header !== false && <Header />}
      <main id="main" className={styles.main}>
        <Outlet />
      </main>
      {handle?.footer !== false && <Footer />}
      <CookieBanner />
      <Toaster closeLabel={t('common.close')} />
      <ConfirmDialog
        labels={{
          confirm: t('common.confirm'),
          cancel: t('common.cancel'),
          close: t('common.close'),
        }}
      />
      <ScrollRestoration />
    </>
  );
}
