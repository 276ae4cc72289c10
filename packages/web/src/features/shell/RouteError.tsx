import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isApiError } from '../../api/apiError';
import { isChunkLoadError, lastClickedHref, reloadOnce } from '../../lib/lastClickedLink';
import { Button } from '../../ui/Button';
import styles from './RootLayout.module.css';

/**
 * What a failed route shows. A module that failed to load means the app was updated: the
 * last clicked link is loaded afresh (SPEC.md §2). Anything else is said plainly, with retry.
 */
export function RouteError({ fullPage = false }: { fullPage?: boolean }) {
  const { t } = useTranslation();
  const error = useRouteError();
  const [reloading, setReloading] = useState(() => isChunkLoadError(error));

  useEffect(() => {
    if (!isChunkLoadError(error)) return;
    if (!reloadOnce(lastClickedHref() ?? window.location.href)) setReloading(false);
  }, [error]);

  if (reloading) return null;
  const unreachable = isApiError(error) && error.response === null;
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : '';
  return (
    <div className={fullPage ? styles.fullPageError : styles.page} role="alert">
      <h1>{t(unreachable ? 'errors.unreachableTitle' : 'errors.pageFailedTitle')}</h1>
      <p>{t(unreachable ? 'errors.unreachableText' : 'errors.pageFailedText')}</p>
      {detail && !unreachable && <p className={styles.muted}>{detail}</p>}
      <Button onClick={() => window.location.reload()}>{t('common.retry')}</Button>
    </div>
  );
}
