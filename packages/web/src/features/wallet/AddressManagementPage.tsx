import { twoFactorCodeRequest } from '@lattice/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/apiError';
import { useSessionUser } from '../../api/session';
import { useLocalePath } from '../../i18n/useLanguage';
import { useForm } from '../../lib/form';
import { responseNotice, submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirmStore';
import { Page } from '../../ui/Page';
import { Badge, Panel } from '../../ui/Panel';
import { TwoFactorCodeField } from '../../ui/TwoFactorCodeField';
import { ListPlaceholder } from './ListPlaceholder';
import { useDateTime } from './RecordsTable';
import { useBalances } from './useBalances';
import { WalletTable } from './WalletTable';
import { WhitelistAddForm } from './WhitelistAddForm';
import styles from './wallet.module.css';
import { walletApi, walletKeys } from './walletApi';
import { translateAll, walletMessage } from './walletMessages';

/** Turns whitelist mode on or off; the 2FA code confirms the change. */
function ModeForm({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm({
    initial: { code: '' },
    schema: twoFactorCodeRequest,
    onSubmit: async ({ code }) => {
      await walletApi.setWhitelistMode(!enabled, code);
      await queryClient.invalidateQueries({ queryKey: walletKeys.whitelist });
      form.reset();
      submitNotice(t(enabled ? 'wallet.whitelist.modeOff' : 'wallet.whitelist.modeOn'));
    },
  });
  return (
    <form onSubmit={form.handleSubmit} noValidate className={styles.row}>
      <TwoFactorCodeField
        label={t('auth.fields.twoFactorCode')}
        value={form.values.code}
        onChange={(code) => form.setField('code', code)}
        errors={translateAll(form.errorsFor('code'), t)}
      />
      <Button
        type="submit"
        variant={enabled ? 'danger' : 'primary'}
        loading={form.submitting}
        style={{ marginBottom: 16 }}
      >
        {t(enabled ? 'wallet.whitelist.turnOff' : 'wallet.whitelist.turnOn')}
      </Button>
      {form.formError && <p className={styles.warning}>{walletMessage(form.formError, t)}</p>}
    </form>
  );
}

/** Saved withdrawal addresses and whitelist mode (SPEC.md §7 "Whitelist"). */
export default function AddressManagementPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const queryClient = useQueryClient();
  const dateTime = useDateTime();
  const twoFactor = useSessionUser()?.twoFactorEnabled === true;
  const list = useQuery({ queryKey: walletKeys.whitelist, queryFn: walletApi.whitelist });
  const balances = useBalances();
  const coins = (balances.data ?? []).filter((row) => !row.isFiat).map((row) => row.ticker);
  const [deleting, setDeleting] = useState<number | null>(null);

  const remove = async (id: number, name: string) => {
    const confirmed = await confirm({
      title: t('wallet.whitelist.deleteTitle'),
      text: t('wallet.whitelist.deleteText', { name }),
      danger: true,
    });
    if (!confirmed) return;
    setDeleting(id);
    try {
      await walletApi.deleteWhitelisted(id);
      await queryClient.invalidateQueries({ queryKey: walletKeys.whitelist });
      submitNotice(t('wallet.whitelist.deleted'));
    } catch (error) {
      if (isApiError(error)) responseNotice(walletMessage(error.firstMessage, t));
    } finally {
      setDeleting(null);
    }
  };

  const enabled = list.data?.enabled === true;
  return (
    <Page title={t('routes.addressManagement')}>
      {!twoFactor && (
        <p className={styles.warning} data-testid="whitelist-needs-2fa">
          {t('wallet.whitelist.needsTwoFactor')}{' '}
          <Link to={to('/user/security-main')}>{t('wallet.withdraw.turnOnTwoFactor')}</Link>
        </p>
      )}
      <div className={styles.columns}>
        <Panel
          title={t('wallet.whitelist.mode')}
          actions={
            <Badge tone={enabled ? 'green' : 'grey'}>
              <span data-testid="whitelist-mode">{t(enabled ? 'wallet.on' : 'wallet.off')}</span>
            </Badge>
          }
        >
          <p className={styles.note}>{t('wallet.whitelist.modeText')}</p>
          {list.isSuccess && twoFactor && <ModeForm enabled={enabled} />}
        </Panel>
        <Panel title={t('wallet.whitelist.add')}>
          {twoFactor && coins.length > 0 ? (
            <WhitelistAddForm coins={coins} />
          ) : (
            <p className={styles.empty}>{t('wallet.whitelist.needsTwoFactor')}</p>
          )}
        </Panel>
      </div>
      <Panel title={t('wallet.whitelist.saved')}>
        {list.isSuccess && list.data.records.length > 0 ? (
          <WalletTable
            columns={[
              'wallet.whitelist.name',
              'wallet.columns.asset',
              'wallet.columns.address',
              'wallet.memo',
              'wallet.columns.time',
              'wallet.columns.actions',
            ]}
          >
            {list.data.records.map((row) => (
              <tr key={row.id} data-testid="whitelist-row">
                <td>{row.name}</td>
                <td>{row.coin}</td>
                <td className={styles.wrap}>
                  <span className={styles.mono}>{row.address}</span>
                </td>
                <td>{row.memo ?? '—'}</td>
                <td>{dateTime(row.date)}</td>
                <td>
                  <Button
                    variant="ghost"
                    size="s"
                    loading={deleting === row.id}
                    onClick={() => void remove(row.id, row.name)}
                  >
                    {t('wallet.whitelist.delete')}
                  </Button>
                </td>
              </tr>
            ))}
          </WalletTable>
        ) : (
          <ListPlaceholder status={list.status} />
        )}
      </Panel>
    </Page>
  );
}
