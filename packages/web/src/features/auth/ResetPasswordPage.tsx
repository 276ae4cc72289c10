import { passwordResetRequest } from '@lattice/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../api/apiError';
import { translateMessage } from '../../i18n/messageKeys';
import { useLocalePath } from '../../i18n/useLanguage';
import { useForm } from '../../lib/form';
import { notice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { StateMessage } from '../../ui/Panel';
import { AuthCard, FormError } from './AuthCard';
import { authApi } from './authApi';

function ResetForm({ token, askTotp }: { token: string; askTotp: boolean }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const form = useForm({
    initial: { password: '', password_confirmation: '', totp: '' },
    schema: passwordResetRequest,
    prepare: ({ totp, ...rest }) => (totp === '' ? { ...rest, token } : { ...rest, totp, token }),
    confirmations: { password_confirmation: 'password' },
    onSubmit: async (body) => {
      await authApi.resetPassword(body);
      notice(t('auth.reset.done'), 'success');
      navigate(to('/login'), { replace: true });
    },
  });
  const showTotp = askTotp || form.errorsFor('totp').length > 0;
  return (
    <form onSubmit={form.handleSubmit} noValidate>
      <FormError message={form.formError} />
      <TextField
        label={t('auth.fields.newPassword')}
        type="password"
        name="password"
        autoComplete="new-password"
        hint={t('auth.register.passwordHint')}
        value={form.values.password}
        onChange={(event) => form.setField('password', event.target.value)}
        errors={form.errorsFor('password')}
      />
      <TextField
        label={t('auth.fields.passwordConfirmation')}
        type="password"
        name="password_confirmation"
        autoComplete="new-password"
        value={form.values.password_confirmation}
        onChange={(event) => form.setField('password_confirmation', event.target.value)}
        errors={form.errorsFor('password_confirmation')}
      />
      {showTotp && (
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
      <Button type="submit" block size="l" loading={form.submitting}>
        {t('auth.reset.submit')}
      </Button>
    </form>
  );
}

/** The e-mailed reset link: the token is checked first, then a new password is chosen. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const token = useSearchParams()[0].get('token') ?? '';
  const check = useQuery({
    queryKey: ['passwordResetToken', token],
    queryFn: () => authApi.validateResetToken(token),
    enabled: token !== '',
    staleTime: 0,
  });
  let body: React.ReactNode;
  if (token === '' || check.isError) {
    const message =
      token === ''
        ? t('validation.tokenRequired')
        : isApiError(check.error)
          ? translateMessage(check.error.firstMessage, t)
          : t('validation.linkInvalid');
    body = (
      <>
        <StateMessage kind="error">{message}</StateMessage>
        <Link to={to('/forgot-password')}>{t('auth.reset.askAgain')}</Link>
      </>
    );
  } else if (check.isPending) {
    body = <StateMessage kind="loading">{t('common.loading')}</StateMessage>;
  } else {
    body = <ResetForm token={token} askTotp={check.data.twoFactorRequired} />;
  }
  return (
    <AuthCard
      title={t('auth.reset.title')}
      footer={<Link to={to('/login')}>{t('auth.backToLogin')}</Link>}
    >
      {body}
    </AuthCard>
  );
}
