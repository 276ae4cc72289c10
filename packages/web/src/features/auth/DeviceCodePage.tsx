import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../api/apiError';
import { translateMessage } from '../../i18n/messageKeys';
import { useLocalePath } from '../../i18n/useLanguage';
import { useForm } from '../../lib/form';
import { notice, responseNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { AuthCard, FormError } from './AuthCard';
import styles from './auth.module.css';
import { authApi } from './authApi';
import { deviceCodeForm } from './codeSchemas';
import { pendingLogin } from './pendingLogin';
import { useRedirectQuery, useSignedIn } from './useSignedIn';

/** Sign-in from a new device: the 6-digit code e-mailed to the account confirms it. */
export default function DeviceCodePage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const redirectQuery = useRedirectQuery();
  const signedIn = useSignedIn();
  const [resending, setResending] = useState(false);
  const login = pendingLogin();
  const form = useForm({
    initial: { device_code: '' },
    schema: deviceCodeForm,
    onSubmit: async ({ device_code }) => {
      if (!login) return;
      const answer = await authApi.login({ ...login, device_code });
      if (answer.status === 'ok') return signedIn();
      if (answer.status === '2fa') navigate(to(`/2fa${redirectQuery}`));
    },
  });

  if (!login) {
    return (
      <AuthCard title={t('auth.device.title')}>
        <p className={styles.info}>{t('auth.device.expired')}</p>
        <Link to={to(`/login${redirectQuery}`)}>{t('auth.backToLogin')}</Link>
      </AuthCard>
    );
  }

  const resend = async () => {
    setResending(true);
    try {
      await authApi.resendDeviceCode();
      notice(t('auth.device.resent'), 'success');
    } catch (error) {
      if (isApiError(error)) responseNotice(translateMessage(error.firstMessage, t));
    } finally {
      setResending(false);
    }
  };

  return (
    <AuthCard
      title={t('auth.device.title')}
      subtitle={t('auth.device.subtitle', { email: login.email })}
    >
      <form onSubmit={form.handleSubmit} noValidate>
        <FormError message={form.formError} />
        <TextField
          label={t('auth.fields.deviceCode')}
          name="device_code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          className={styles.code}
          value={form.values.device_code}
          onChange={(event) => form.setField('device_code', event.target.value.trim())}
          errors={form.errorsFor('device_code')}
        />
        <Button type="submit" block size="l" loading={form.submitting}>
          {t('auth.device.submit')}
        </Button>
      </form>
      <div className={styles.divider} />
      <Button variant="ghost" block onClick={() => void resend()} loading={resending}>
        {t('auth.device.resend')}
      </Button>
    </AuthCard>
  );
}
