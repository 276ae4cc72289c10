import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import { useForm } from '../../lib/form';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { AuthCard, FormError } from './AuthCard';
import styles from './auth.module.css';
import { authApi } from './authApi';
import { twoFactorCodeForm } from './codeSchemas';
import { useRedirectQuery, useSignedIn } from './useSignedIn';

/** Sign-in, last step for accounts with 2FA: the authenticator's 6-digit code. */
export default function TwoFactorPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const redirectQuery = useRedirectQuery();
  const signedIn = useSignedIn();
  const form = useForm({
    initial: { code: '' },
    schema: twoFactorCodeForm,
    onSubmit: async ({ code }) => {
      await authApi.validateTwoFactor(code);
      await signedIn();
    },
  });

  return (
    <AuthCard
      title={t('auth.twoFactor.title')}
      subtitle={t('auth.twoFactor.subtitle')}
      footer={<Link to={to(`/login${redirectQuery}`)}>{t('auth.backToLogin')}</Link>}
    >
      <form onSubmit={form.handleSubmit} noValidate>
        <FormError message={form.formError} />
        <TextField
          label={t('auth.fields.twoFactorCode')}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          className={styles.code}
          value={form.values.code}
          onChange={(event) => form.setField('code', event.target.value.trim())}
          errors={form.errorsFor('code')}
        />
        <Button type="submit" block size="l" loading={form.submitting}>
          {t('auth.twoFactor.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
