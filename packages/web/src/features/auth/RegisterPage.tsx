import { registerRequest } from '@lattice/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import { useForm } from '../../lib/form';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { AuthCard, FormError } from './AuthCard';
import { authApi } from './authApi';
import { GoogleRegisterForm } from './GoogleRegisterForm';
import {
  ResidenceFields,
  type ResidenceFieldsProps,
  type ResidenceValues,
  withoutEmptyReferral,
} from './ResidenceFields';

interface RegisterValues extends ResidenceValues {
  email: string;
  password: string;
  password_confirmation: string;
}

function EmailRegisterForm({ referralCode }: { referralCode: string }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const initial: RegisterValues = {
    email: '',
    password: '',
    password_confirmation: '',
    country: '',
    privacy_policy: false,
    not_restricted_resident: false,
    referral_code: referralCode,
  };
  const form = useForm({
    initial,
    schema: registerRequest,
    prepare: withoutEmptyReferral,
    confirmations: { password_confirmation: 'password' },
    onSubmit: async (body) => {
      await authApi.register(body);
      navigate(to(`/check-email?email=${encodeURIComponent(body.email)}`));
    },
  });
  const text = (name: 'email' | 'password' | 'password_confirmation') => ({
    name,
    value: form.values[name],
    onChange: (event: { target: { value: string } }) => form.setField(name, event.target.value),
    errors: form.errorsFor(name),
  });
  return (
    <form onSubmit={form.handleSubmit} noValidate>
      <FormError message={form.formError} />
      <TextField
        label={t('auth.fields.email')}
        type="email"
        autoComplete="email"
        {...text('email')}
      />
      <TextField
        label={t('auth.fields.password')}
        type="password"
        autoComplete="new-password"
        hint={t('auth.register.passwordHint')}
        {...text('password')}
      />
      <TextField
        label={t('auth.fields.passwordConfirmation')}
        type="password"
        autoComplete="new-password"
        {...text('password_confirmation')}
      />
      <ResidenceFields
        values={form.values}
        // The form holds more fields than these; the shared part sets only its own.
        set={form.setField as ResidenceFieldsProps['set']}
        errorsFor={form.errorsFor}
      />
      <Button type="submit" block size="l" loading={form.submitting}>
        {t('auth.register.submit')}
      </Button>
    </form>
  );
}

/** Sign-up by e-mail (the rules of SPEC.md §5, checked as the user types) or after Google. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const [search] = useSearchParams();
  const referralCode = search.get('ref') ?? '';
  const google = search.get('google') === '1';
  return (
    <AuthCard
      title={t('auth.register.title')}
      subtitle={t(google ? 'auth.register.googleSubtitle' : 'auth.register.subtitle')}
      footer={
        <>
          {t('auth.register.haveAccount')} <Link to={to('/login')}>{t('nav.signIn')}</Link>
        </>
      }
    >
      {google ? (
        <GoogleRegisterForm referralCode={referralCode} />
      ) : (
        <EmailRegisterForm referralCode={referralCode} />
      )}
    </AuthCard>
  );
}
