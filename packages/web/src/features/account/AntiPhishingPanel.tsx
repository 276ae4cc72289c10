import { antiPhishingAddRequest, totpRequest } from '@lattice/contracts';
import { useTranslation } from 'react-i18next';
import { useForm } from '../../lib/form';
import { submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Badge, Panel } from '../../ui/Panel';
import styles from './account.module.css';
import { accountApi, type SecuritySettings } from './accountApi';
import { useAccountRefresh } from './useAccountRefresh';

function CodeForm() {
  const { t } = useTranslation();
  const refresh = useAccountRefresh();
  const form = useForm({
    initial: { code: '', totp: '' },
    schema: antiPhishingAddRequest,
    onSubmit: async ({ code, totp }) => {
      await accountApi.setAntiPhishingCode(code, totp);
      form.reset();
      await refresh();
      submitNotice(t('account.antiPhishing.saved'));
    },
  });
  return (
    <form onSubmit={form.handleSubmit} noValidate>
      <div className={styles.formRow}>
        <TextField
          label={t('account.antiPhishing.code')}
          name="code"
          value={form.values.code}
          onChange={(event) => form.setField('code', event.target.value)}
          errors={form.errorsFor('code')}
        />
        <TextField
          label={t('auth.fields.twoFactorCode')}
          name="totp"
          inputMode="numeric"
          maxLength={6}
          value={form.values.totp}
          onChange={(event) => form.setField('totp', event.target.value.trim())}
          errors={form.errorsFor('totp')}
        />
      </div>
      {form.formError && <p className={styles.warning}>{form.formError}</p>}
      <Button type="submit" loading={form.submitting}>
        {t('account.antiPhishing.setCode')}
      </Button>
    </form>
  );
}

function ToggleForm({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const refresh = useAccountRefresh();
  const form = useForm({
    initial: { totp: '' },
    schema: totpRequest,
    onSubmit: async ({ totp }) => {
      await accountApi.toggleAntiPhishing(totp);
      form.reset();
      await refresh();
      submitNotice(t(enabled ? 'account.antiPhishing.turnedOff' : 'account.antiPhishing.turnedOn'));
    },
  });
  return (
    <form onSubmit={form.handleSubmit} noValidate className={styles.inline}>
      <TextField
        label={t('auth.fields.twoFactorCode')}
        name="totp"
        inputMode="numeric"
        maxLength={6}
        value={form.values.totp}
        onChange={(event) => form.setField('totp', event.target.value.trim())}
        errors={form.errorsFor('totp')}
      />
      <Button type="submit" variant="secondary" loading={form.submitting}>
        {t(enabled ? 'account.antiPhishing.turnOff' : 'account.antiPhishing.turnOn')}
      </Button>
      {form.formError && <p className={styles.warning}>{form.formError}</p>}
    </form>
  );
}

/** The code every e-mail from the exchange carries, so a fake one is easy to spot. */
export function AntiPhishingPanel({ security }: { security: SecuritySettings }) {
  const { t } = useTranslation();
  const enabled = security.antiPhishingEnabled;
  return (
    <Panel
      title={t('account.antiPhishing.title')}
      actions={
        <Badge tone={enabled ? 'green' : 'grey'}>
          {enabled ? t('account.on') : t('account.off')}
        </Badge>
      }
    >
      <p className={styles.muted}>{t('account.antiPhishing.text')}</p>
      {!security.twoFactorEnabled ? (
        <p className={styles.note}>{t('account.needsTwoFactor')}</p>
      ) : (
        <>
          {security.antiPhishingCodes && (
            <p>
              {t('account.antiPhishing.current')} <strong>{security.antiPhishingCodes}</strong>
            </p>
          )}
          <CodeForm />
          {security.antiPhishingCodes && (
            <div className={styles.setting}>
              <ToggleForm enabled={enabled} />
            </div>
          )}
        </>
      )}
    </Panel>
  );
}
