import { withdrawalStatus } from '@lattice/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isApiError, networkErrorCode } from '../../api/apiError';
import { useLocalePath } from '../../i18n/useLanguage';
import { Button } from '../../ui/Button';
import { Page } from '../../ui/Page';
import { Badge, Panel, StateMessage } from '../../ui/Panel';
import { useDateTime } from './RecordsTable';
import { statusKey, statusTone } from './status';
import styles from './wallet.module.css';
import { walletApi } from './walletApi';
import { walletMessage } from './walletMessages';

/** The server's answer for a link that cannot confirm: unknown, used, expired or cut short. */
function isDeadLink(error: unknown): boolean {
  return isApiError(error) && error.status < 500 && error.code !== networkErrorCode;
}

/** A link that cannot confirm: where to see what became of the withdrawal. */
function DeadLink() {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <Panel>
      <StateMessage kind="error">{t('validation.linkInvalid')}</StateMessage>
      <p className={styles.note}>{t('wallet.confirmLink.invalidText')}</p>
      <Link to={to('/history/withdraw')}>{t('routes.historyWithdraw')}</Link>
    </Panel>
  );
}

/**
 * The page the e-mail link of an API-key withdrawal opens (status 5). Opening it only reads
 * the withdrawal; the Confirm button posts the token. Mail scanners fetch links but do not
 * click, so they cannot approve what a stolen API key asked for. The token is the proof:
 * no sign-in is needed.
 */
export default function WithdrawalConfirmPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const dateTime = useDateTime();
  const token = useSearchParams()[0].get('token') ?? '';
  const details = useQuery({
    queryKey: ['wallet', 'withdrawalConfirmation', token],
    queryFn: () => walletApi.withdrawalConfirmation(token),
    enabled: token !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  const confirmation = useMutation({ mutationFn: () => walletApi.confirmWithdrawal(token) });
  const title = t('routes.withdrawalConfirm');

  if (token === '' || isDeadLink(details.error) || isDeadLink(confirmation.error)) {
    return (
      <Page title={title} width="narrow">
        <DeadLink />
      </Page>
    );
  }
  if (confirmation.data) {
    const done = confirmation.data;
    return (
      <Page title={title} width="narrow">
        <Panel title={t('wallet.withdraw.confirmed')}>
          <dl className={styles.facts} data-testid="withdrawal-confirmed">
            <dt>{t('wallet.amount')}</dt>
            <dd>
              {done.amount} {done.ticker}
            </dd>
            <dt>{t('wallet.columns.status')}</dt>
            <dd>
              <Badge tone={statusTone(done.status)}>{t(statusKey(done.status))}</Badge>
            </dd>
          </dl>
          {done.status === withdrawalStatus.unconfirmedByAdmin && (
            <p className={styles.note}>{t('wallet.confirmLink.inReview')}</p>
          )}
          <Link to={to('/history/withdraw')}>{t('routes.historyWithdraw')}</Link>
        </Panel>
      </Page>
    );
  }
  if (details.isError) {
    return (
      <Page title={title} width="narrow">
        <StateMessage
          kind="error"
          action={
            <Button variant="secondary" size="s" onClick={() => void details.refetch()}>
              {t('wallet.confirmLink.retry')}
            </Button>
          }
        >
          {t('wallet.confirmLink.loadFailed')}
        </StateMessage>
      </Page>
    );
  }
  if (!details.data) {
    return (
      <Page title={title} width="narrow">
        <StateMessage kind="loading">{t('wallet.loading')}</StateMessage>
      </Page>
    );
  }

  const withdrawal = details.data;
  const failure = confirmation.error;
  return (
    <Page title={title} width="narrow" subtitle={t('wallet.confirmLink.lead')}>
      <Panel>
        <dl className={styles.facts} data-testid="withdrawal-to-confirm">
          <dt>{t('wallet.amount')}</dt>
          <dd>
            {withdrawal.amount} {withdrawal.ticker}
          </dd>
          <dt>{t('wallet.columns.fee')}</dt>
          <dd>
            {withdrawal.fee} {withdrawal.ticker}
          </dd>
          <dt>{t('wallet.columns.network')}</dt>
          <dd>{withdrawal.network}</dd>
          <dt>{t('wallet.columns.address')}</dt>
          <dd className={styles.mono}>{withdrawal.address}</dd>
          {withdrawal.memo !== null && (
            <>
              <dt>{t('wallet.memo')}</dt>
              <dd className={styles.mono}>{withdrawal.memo}</dd>
            </>
          )}
          <dt>{t('wallet.confirmLink.requested')}</dt>
          <dd>{dateTime(withdrawal.createdAt)}</dd>
        </dl>
        <p className={styles.warning}>{t('wallet.confirmLink.notYou')}</p>
        {failure && (
          <StateMessage kind="error">
            {isApiError(failure)
              ? walletMessage(failure.firstMessage, t)
              : t('wallet.confirmLink.failed')}
          </StateMessage>
        )}
        <div className={styles.confirmActions}>
          <Button loading={confirmation.isPending} onClick={() => confirmation.mutate()}>
            {t('wallet.confirmLink.submit')}
          </Button>
          <Link to={to('/')}>{t('wallet.confirmLink.cancel')}</Link>
        </div>
      </Panel>
    </Page>
  );
}
