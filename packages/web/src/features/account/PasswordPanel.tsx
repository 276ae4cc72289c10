import { changePasswordRequest } from '@lattice/contracts';
import { useTranslation } from 'react-i18next';
import { useForm } from '../../lib/form';
import { submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirmStore';
import { TextField } from '../../ui/Field';
import { Panel } from '../../ui/Panel';
import styles from './account.module.css';
import { accountApi } from './accountApi';

const initial = { old_password: '', password: '', password_confirmation: '', totp: '' };

/** Changes the password; withdrawals then stay blocked for 3 days (SPEC.md §5). */
export function PasswordPanel({ twoFactorEnabled }: { twoFactorEnabled: boolean }) {
  const { t } = useTranslation();
  const form = useForm({
    initial,
    schema: changePasswordRequest,
    prepare: ({ totp, ...rest }) => (totp === '' ? rest : { ...rest, totp }),
    confirmations: { password_confirmation: 'password' },
    onSubmit: async (body) => {
      const confirmed = await confirm({
        title: t('account.password.confirmTitle'),
        text: t('account.password.withdrawalBlock'),
      });
      if (!confirmed) return;
      await accountApi.changePassword(body);
      form.reset();
      submitNotice(t('account.password.changed'));
    },
  });
  const field = (name: keyof typeof initial, label: string, autoComplete: string) => (
    <TextField
      label={label}
      type="password"
      name={name}
      autoComplete={autoComplete}
      value={form.values[name]}
      onChange={(event) => form.setField(name, event.target.value)}
      errors={form.errorsFor(name)}
    />
  );
  return (
    <Panel title={t('account.password.title')}>
      <p className={styles.note}>{t('account.password.withdrawalBlock')}</p>
      <form onSubmit={form.handleSubmit} noValidate>
        <div className={styles.formRow}>
          {field('old_password', t('account.password.old'), 'current-password')}
          {field('password', t('auth.fields.newPassword'), 'new-password')}
          {field('password_confirmation', t('auth.fields.passwordConfirmation'), 'new-password')}
          {twoFactorEnabled && (
            <TextField
              label={t('auth.fields.twoFactorCode')}
              name="totp"
              inputMode="numeric"
              maxLength={6}
              value={form.values.totp}
              onChange={(event) => form.setField('totp', event.target.value.trim())}
              errors={form.errorsFor('totp')}
            />
          )}
        </div>
        {form.formError && <p className={styles.warning}>{form.formError}</p>}
        <Button type="submit" loading={form.submitting}>
          {t('account.password.submit')}
        </Button>
      </form>
    </Panel>
  );
}
