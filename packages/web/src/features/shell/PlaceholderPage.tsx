import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import { Page } from '../../ui/Page';
import { Panel } from '../../ui/Panel';

/** A screen that exists as a route but is not built yet, and says so. */
export function PlaceholderPage({ title }: { title: string }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <Page title={t(`routes.${title}`)}>
      <Panel>
        <p data-testid="placeholder">{t('placeholder.notBuilt')}</p>
        <Link to={to('/')}>{t('placeholder.backHome')}</Link>
      </Panel>
    </Page>
  );
}
