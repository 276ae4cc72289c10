import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { useSystemParams } from '../../api/session';
import { splitLanguage } from '../../i18n/languages';
import { activePair } from '../../lib/activePair';
import { Page } from '../../ui/Page';
import { Panel } from '../../ui/Panel';

/** The pro and classic trade routes until their screens exist: which pair is active. */
export default function TradePlaceholderPage() {
  const { t } = useTranslation();
  const { pair } = useParams();
  const params = useSystemParams();
  const classic = splitLanguage(useLocation().pathname).path.startsWith('/trade_classic');
  const shown = pair ?? activePair() ?? params?.defaultPair ?? '';
  return (
    <Page title={t(classic ? 'routes.tradeClassic' : 'routes.trade')}>
      <Panel title={shown.replace('_', ' / ')}>
        <p data-testid="placeholder">{t('placeholder.tradeNotBuilt')}</p>
      </Panel>
    </Page>
  );
}
