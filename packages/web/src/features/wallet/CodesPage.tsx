import type { VoucherJson } from '@lattice/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/apiError';
import { useSessionUser } from '../../api/session';
import { useLocalePath } from '../../i18n/useLanguage';
import { responseNotice, submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirmStore';
import { Page } from '../../ui/Page';
import { Panel } from '../../ui/Panel';
import { ActivateCodeForm, CreateCodeForm } from './CodeForms';
import { CopyButton } from './CopyButton';
import { ListPlaceholder } from './ListPlaceholder';
import { useDateTime } from './RecordsTable';
import { useBalances } from './useBalances';
import { WalletTable } from './WalletTable';
import styles from './wallet.module.css';
import { walletApi, walletKeys } from './walletApi';
import { walletMessage } from './walletMessages';

const myCodesCount = 100;

/** The caller's active codes, each with copy and cancel. */
function MyCodes() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const dateTime = useDateTime();
  const [busy, setBusy] = useState<string | null>(null);
  const codes = useQuery({
    queryKey: [...walletKeys.codes, 'my'],
    queryFn: () => walletApi.codes('my', '', 0, myCodesCount),
  });
  const cancel = async (code: VoucherJson) => {
    const confirmed = await confirm({
      title: t('wallet.codes.cancelTitle'),
      text: t('wallet.codes.cancelText', { amount: code.amount, ticker: code.ticker }),
      danger: true,
    });
    if (!confirmed) return;
    setBusy(code.code);
    try {
      await walletApi.cancelCode(code.code);
      await queryClient.invalidateQueries({ queryKey: walletKeys.codes });
      await queryClient.invalidateQueries({ queryKey: walletKeys.balances });
      submitNotice(t('wallet.codes.cancelled'));
    } catch (error) {
      if (isApiError(error)) responseNotice(walletMessage(error.firstMessage, t));
    } finally {
      setBusy(null);
    }
  };
  if (codes.status !== 'success' || codes.data.records.length === 0) {
    return <ListPlaceholder status={codes.status} />;
  }
  return (
    <WalletTable
      columns={[
        'wallet.columns.time',
        'wallet.codes.code',
        'wallet.columns.asset',
        'wallet.amount',
        'wallet.columns.actions',
      ]}
    >
      {codes.data.records.map((code) => (
        <tr key={code.code} data-testid="my-code-row">
          <td>{dateTime(code.date)}</td>
          <td className={styles.code} data-testid="my-code">
            {code.code}
          </td>
          <td>{code.ticker}</td>
          <td>{code.amount}</td>
          <td>
            <span className={styles.actions}>
              <CopyButton text={code.code} label={t('wallet.codes.copy')} />
              <Button
                variant="ghost"
                size="s"
                loading={busy === code.code}
                onClick={() => void cancel(code)}
              >
                {t('wallet.codes.cancel')}
              </Button>
            </span>
          </td>
        </tr>
      ))}
    </WalletTable>
  );
}

/** Transfer codes (SPEC.md §1, §7 "Codes"): create, activate, the active ones, history. */
export default function CodesPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const user = useSessionUser();
  // A visitor sees the page too (it is public): nothing of a user's is asked for then.
  const balances = useBalances(user !== null);
  const [created, setCreated] = useState<VoucherJson | null>(null);

  if (!user) {
    return (
      <Page title={t('routes.codes')} subtitle={t('wallet.codes.intro')}>
        <p className={styles.note}>
          <Link to={to(`/login?redirect=${encodeURIComponent('/codes')}`)}>
            {t('wallet.codes.signIn')}
          </Link>
        </p>
      </Page>
    );
  }
  const verified = user.kyc === 'verified';
  return (
    <Page title={t('routes.codes')} subtitle={t('wallet.codes.intro')}>
      <div className={styles.columns}>
        <Panel title={t('wallet.codes.create')}>
          {!verified && (
            <p className={styles.warning} data-testid="codes-kyc">
              {t('wallet.messages.kycRequired')}{' '}
              <Link to={to('/user/verification')}>{t('wallet.codes.verify')}</Link>
            </p>
          )}
          {verified && balances.isSuccess && (
            <CreateCodeForm balances={balances.data} onCreated={setCreated} />
          )}
          {created && (
            <div className={styles.note} data-testid="created-code">
              <p>
                {t('wallet.codes.createdText', { amount: created.amount, ticker: created.ticker })}
              </p>
              <p className={styles.code}>{created.code}</p>
              <CopyButton text={created.code} label={t('wallet.codes.copy')} />
            </div>
          )}
        </Panel>
        <Panel title={t('wallet.codes.activate')}>
          <ActivateCodeForm />
        </Panel>
      </div>
      <Panel
        title={t('wallet.codes.active')}
        actions={<Link to={to('/history/codes')}>{t('routes.historyCodes')}</Link>}
      >
        <MyCodes />
      </Panel>
    </Page>
  );
}
