import { twoFactorCodeRequest } from '@lattice/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/apiError';
import { translateMessage } from '../../i18n/messageKeys';
import { useForm } from '../../lib/form';
import { responseNotice, submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirmStore';
import { TextField } from '../../ui/Field';
import { Badge, Panel } from '../../ui/Panel';
import styles from './account.module.css';
import { accountApi, type TwoFactorSetup } from './accountApi';
import { useAccountRefresh } from './useAccountRefresh';

/** The authenticator's code that turns 2FA on or off. */
function CodeForm({
  submitLabel,
  onDone,
  danger,
}: {
  submitLabel: string;
  onDone: () => Promise<void>;
  danger?: boolean;
}) {
  const { t } = useTranslation();
  const form = useForm({
    initial: { code: '' },
    schema: twoFactorCodeRequest,
    onSubmit: async ({ code }) => {
      if (danger) {
        const confirmed = await confirm({
          title: t('account.twoFactor.disableTitle'),
          text: t('account.twoFactor.disableText'),
          danger: true,
        });
        if (!confirmed) return;
      }
      await accountApi.toggleTwoFactor(code);
      form.reset();
      await onDone();
    },
  });
  return (
    <form onSubmit={form.handleSubmit} noValidate className={styles.inline}>
      <TextField
        label={t('auth.fields.twoFactorCode')}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={form.values.code}
        onChange={(event) => form.setField('code', event.target.value.trim())}
        errors={form.errorsFor('code')}
      />
      <Button type="submit" variant={danger ? 'danger' : 'primary'} loading={form.submitting}>
        {submitLabel}
      </Button>
      {form.formError && <p className={styles.warning}>{form.formError}</p>}
    </form>
  );
}

/** 2FA set-up: a new secret as a QR code and text, confirmed by a first code. */
export function TwoFactorPanel({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const refresh = useAccountRefresh();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [generating, setGenerating] = useState(false);

  const generate = async () => {
    setGenerating(true);
    try {
      setSetup(await accountApi.generateTwoFactor());
    } catch (error) {
      if (isApiError(error)) responseNotice(translateMessage(error.firstMessage, t));
    } finally {
      setGenerating(false);
    }
  };

  const done = (message: string) => async () => {
    setSetup(null);
    await refresh();
    submitNotice(message);
  };

  return (
    <Panel
      title={t('account.twoFactor.title')}
      actions={
        <Badge tone={enabled ? 'green' : 'red'}>
          {enabled ? t('account.on') : t('account.off')}
        </Badge>
      }
    >
      {enabled ? (
        <>
          <p className={styles.muted}>{t('account.twoFactor.enabledText')}</p>
          <CodeForm
            submitLabel={t('account.twoFactor.disable')}
            danger
            onDone={done(t('account.twoFactor.disabled'))}
          />
        </>
      ) : setup ? (
        <>
          <div className={styles.qr}>
            <img src={setup.twoFactorQrUrl} alt={t('account.twoFactor.qrAlt')} />
            <div>
              <p>{t('account.twoFactor.scan')}</p>
              <p className={styles.muted}>{t('account.twoFactor.orEnter')}</p>
              <p className={styles.secret} data-testid="totp-secret">
                {setup.twoFactorSecret}
              </p>
            </div>
          </div>
          <CodeForm
            submitLabel={t('account.twoFactor.enable')}
            onDone={done(t('account.twoFactor.enabled'))}
          />
        </>
      ) : (
        <>
          <p className={styles.muted}>{t('account.twoFactor.disabledText')}</p>
          <Button onClick={() => void generate()} loading={generating}>
            {t('account.twoFactor.setUp')}
          </Button>
        </>
      )}
    </Panel>
  );
}
