import { loginRequest } from '@lattice/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import { useForm } from '../../lib/form';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { AuthCard, FormError } from './AuthCard';
import styles from './auth.module.css';
import { authApi } from './authApi';
import { setPendingLogin } from './pendingLogin';
import { useRedirectQuery, useSignedIn } from './useSignedIn';

/** Sign-in, step one: e-mail and password; then a new device's code or 2FA when asked. */
export default function LoginPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const redirectQuery = useRedirectQuery();
  const signedIn = useSignedIn();
  const googleError = useSearchParams()[0].get('error');
  const form = useForm({
    initial: { email: '', password: '' },
    schema: loginRequest,
    onSubmit: async (body) => {
      const answer = await authApi.login(body);
      if (answer.status === 'ok') return signedIn();
      if (answer.status === 'device_confirmation') {
        setPendingLogin({ email: body.email, password: body.password });
        navigate(to(`/device-confirmation${redirectQuery}`));
        return;
      }
      navigate(to(`/2fa${redirectQuery}`));
    },
  });

  return (
    <AuthCard
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle')}
      footer={
        <>
          {t('auth.login.noAccount')} <Link to={to('/register')}>{t('nav.signUp')}</Link>
        </>
      }
    >
      <form onSubmit={form.handleSubmit} noValidate>
        <FormError
          message={
            form.formError ??
            (googleError === 'google_email'
              ? t('auth.login.googleNoEmail')
              : googleError
                ? t('auth.login.googleFailed')
                : null)
          }
        />
        <TextField
          label={t('auth.fields.email')}
          type="email"
          name="email"
          autoComplete="username"
          value={form.values.email}
          onChange={(event) => form.setField('email', event.target.value)}
          errors={form.errorsFor('email')}
        />
        <TextField
          label={t('auth.fields.password')}
          type="password"
          name="password"
          autoComplete="current-password"
          value={form.values.password}
          onChange={(event) => form.setField('password', event.target.value)}
          errors={form.errorsFor('password')}
        />
        <div className={styles.row}>
          <Link to={to('/forgot-password')}>{t('auth.login.forgot')}</Link>
        </div>
        <Button type="submit" block size="l" loading={form.submitting}>
          {t('auth.login.submit')}
        </Button>
      </form>
      <div className={styles.divider}>{t('auth.login.or')}</div>
      <Link to={to('/google-auth')}>{t('auth.login.google')}</Link>
    </AuthCard>
  );
}
