import { useTranslation } from 'react-i18next';
import { Page } from '../../ui/Page';
import { StateMessage } from '../../ui/Panel';

/**
 * A currency's wallet page (detail, deposit, withdrawal) before it can show: still loading, or
 * failed, which the user reads as a currency the exchange does not list.
 */
export function CurrencyPageState({
  title,
  ticker,
  loading,
}: {
  title: string;
  ticker: string;
  loading: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Page title={title}>
      {loading ? (
        <StateMessage kind="loading">{t('wallet.loading')}</StateMessage>
      ) : (
        <StateMessage kind="error">{t('wallet.unknownTicker', { ticker })}</StateMessage>
      )}
    </Page>
  );
}
