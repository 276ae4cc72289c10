import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLoaderData } from 'react-router';
import type { NotFoundData } from '../../app/guards';
import { useLocalePath } from '../../i18n/useLanguage';
import { Page } from '../../ui/Page';

/**
 * The not-found page. Whoever sent the user here stored the missing address, and the route
 * took it from storage; it goes back into the address bar, so reload and sharing use it.
 */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const missing = (useLoaderData() as NotFoundData | undefined)?.missingPath ?? null;

  useEffect(() => {
    if (missing) window.history.replaceState(window.history.state, '', missing);
  }, [missing]);

  return (
    <Page title={t('notFound.title')} subtitle={t('notFound.text')}>
      {missing && (
        <p>
          <code>{missing}</code>
        </p>
      )}
      <Link to={to('/')}>{t('placeholder.backHome')}</Link>
    </Page>
  );
}
