import { passwordEmailRequest } from '@lattice/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/apiError';
import { translateMessage } from '../../i18n/messageKeys';
import { useLocalePath } from '../../i18n/useLanguage';
import { useForm } from '../../lib/form';
import { responseNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { AuthCard, FormError } from './AuthCard';
import styles from './auth.module.css';
import { authApi } from './authApi';

/** Asks for a reset link; the answer never says whether the address has an account. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const form = useForm({
    initial: { email: '' },
    schema: passwordEmailRequest,
    onSubmit: async ({ email }) => {
      await authApi.requestPasswordReset(email);
      setSentTo(email);
    },
  });

  const resend = async (email: string) => {
    setResending(true);
    try {
      await authApi.resendPasswordReset(email);
    } catch (error) {
      if (isApiError(error)) responseNotice(translateMessage(error.firstMessage, t));
    } finally {
      setResending(false);
    }
  };

  return (
    <AuthCard
      title={t('auth.forgot.title')}
      subtitle={sentTo ? undefined : t('auth.forgot.subtitle')}
      footer={<Link to={to('/login')}>{t('auth.backToLogin')}</Link>}
    >
      {sentTo ? (
        <>
          <p className={styles.info} role="status">
            {t('auth.forgot.sent')}
          </p>
          <Button variant="secondary" block loading={resending} onClick={() => void resend(sentTo)}>
            {t('auth.forgot.resend')}
          </Button>
        </>
      ) : (
        <form onSubmit={form.handleSubmit} noValidate>
          <FormError message={form.formError} />
          <TextField
            label={t('auth.fields.email')}
            type="email"
            name="email"
            autoComplete="email"
            value={form.values.email}
            onChange={(event) => form.setField('email', event.target.value)}
            errors={form.errorsFor('email')}
          />
          <Button type="submit" block size="l" loading={form.submitting}>
            {t('auth.forgot.submit')}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
