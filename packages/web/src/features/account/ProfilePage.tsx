import { generalSettingsRequest } from '@lattice/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { systemParamsKey, useSessionUser } from '../../api/session';
import { useLocalePath } from '../../i18n/useLanguage';
import { useForm } from '../../lib/form';
import { submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirmStore';
import { TextField } from '../../ui/Field';
import { Panel, StateMessage } from '../../ui/Panel';
import { KycBadge } from '../shell/KycBadge';
import { AccountPage } from './AccountPage';
import styles from './account.module.css';
import { accountApi, accountKeys, type GeneralSettings, generalSettingsQuery } from './accountApi';

const nicknameForm = generalSettingsRequest.pick({ nickname: true }).required();

/** Sets the nickname, which can be done once; asks first, since it cannot be undone. */
function NicknameForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm({
    initial: { nickname: '' },
    schema: nicknameForm,
    onSubmit: async ({ nickname }) => {
      const confirmed = await confirm({
        title: t('account.profile.confirmNicknameTitle'),
        text: t('account.profile.confirmNicknameText', { nickname }),
      });
      if (!confirmed) return;
      const saved = await accountApi.saveGeneral({ nickname });
      queryClient.setQueryData(accountKeys.general, (previous: GeneralSettings | undefined) =>
        previous ? { ...previous, ...saved, nickname, canChangeNickname: false } : previous,
      );
      await queryClient.invalidateQueries({ queryKey: systemParamsKey });
      submitNotice(t('account.profile.nicknameSaved'));
    },
  });
  return (
    <form onSubmit={form.handleSubmit} noValidate className={styles.inline}>
      <TextField
        label={t('account.profile.nickname')}
        name="nickname"
        hint={t('account.profile.nicknameOnce')}
        value={form.values.nickname}
        onChange={(event) => form.setField('nickname', event.target.value)}
        errors={form.errorsFor('nickname')}
      />
      <Button type="submit" loading={form.submitting}>
        {t('common.save')}
      </Button>
      {form.formError && <p className={styles.warning}>{form.formError}</p>}
    </form>
  );
}

/** The account at a glance: e-mail, nickname (settable once), KYC and 2FA status. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const user = useSessionUser();
  const settings = useQuery(generalSettingsQuery);

  return (
    <AccountPage title={t('routes.profile')}>
      <Panel title={t('account.profile.details')}>
        {settings.isPending && <StateMessage kind="loading">{t('common.loading')}</StateMessage>}
        {settings.isError && (
          <StateMessage
            kind="error"
            action={
              <Button size="s" variant="secondary" onClick={() => void settings.refetch()}>
                {t('common.retry')}
              </Button>
            }
          >
            {t('account.loadFailed')}
          </StateMessage>
        )}
        {settings.data && (
          <dl className={styles.rows}>
            <dt>{t('auth.fields.email')}</dt>
            <dd data-testid="profile-email">{settings.data.email}</dd>
            <dt>{t('account.profile.nickname')}</dt>
            <dd>
              {settings.data.nickname ?? (
                <span className={styles.muted}>{t('account.profile.noNickname')}</span>
              )}
            </dd>
            <dt>{t('account.profile.kyc')}</dt>
            <dd>
              {user && <KycBadge kyc={user.kyc} />}
              {user?.kyc === 'unverified' && (
                <Link to={to('/user/verification')}>{t('account.profile.verifyNow')}</Link>
              )}
              {user?.kyc === 'pending' && (
                <span className={styles.muted}>{t('account.profile.kycPending')}</span>
              )}
            </dd>
            <dt>{t('account.profile.twoFactor')}</dt>
            <dd>
              {settings.data.isTwoFactorEnabled ? t('account.on') : t('account.off')}
              <Link to={to('/user/security-main')}>{t('account.profile.manageSecurity')}</Link>
            </dd>
          </dl>
        )}
      </Panel>
      {settings.data?.canChangeNickname && (
        <Panel title={t('account.profile.setNickname')}>
          <NicknameForm />
        </Panel>
      )}
    </AccountPage>
  );
}
