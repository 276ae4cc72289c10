import { registerRequest } from '@lattice/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useLanguage, useLocalePath } from '../../i18n/useLanguage';
import { useForm } from '../../lib/form';
import { Button } from '../../ui/Button';
import { Checkbox, SelectField, TextField } from '../../ui/Field';
import { AuthCard, FormError } from './AuthCard';
import { authApi } from './authApi';
import { countryOptions } from './countries';

interface RegisterValues extends Record<string, unknown> {
  email: string;
  password: string;
  password_confirmation: string;
  country: string;
  privacy_policy: boolean;
  not_restricted_resident: boolean;
  referral_code: string;
}

/** An empty referral code is no referral code; unticked boxes are not acceptance. */
function prepare(values: RegisterValues) {
  const { referral_code, ...rest } = values;
  return referral_code.trim() === '' ? rest : values;
}

/** Sign-up: the rules of SPEC.md §5, checked as the user types. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const language = useLanguage();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const countries = useMemo(() => countryOptions(language), [language]);
  const form = useForm({
    initial: {
      email: '',
      password: '',
      password_confirmation: '',
      country: '',
      privacy_policy: false,
      not_restricted_resident: false,
      referral_code: search.get('ref') ?? '',
    } satisfies RegisterValues as RegisterValues,
    schema: registerRequest,
    prepare,
    onSubmit: async (body) => {
      await authApi.register(body);
      navigate(to(`/check-email?email=${encodeURIComponent(body.email)}`));
    },
  });
  const text = (name: 'email' | 'password' | 'password_confirmation' | 'referral_code') => ({
    name,
    value: form.values[name],
    onChange: (event: { target: { value: string } }) => form.setField(name, event.target.value),
    errors: form.errorsFor(name),
  });

  return (
    <AuthCard
      title={t('auth.register.title')}
      subtitle={t('auth.register.subtitle')}
      footer={
        <>
          {t('auth.register.haveAccount')} <Link to={to('/login')}>{t('nav.signIn')}</Link>
        </>
      }
    >
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
        <SelectField
          label={t('auth.fields.country')}
          name="country"
          placeholder={t('auth.register.chooseCountry')}
          options={countries}
          value={form.values.country}
          onChange={(event) => form.setField('country', event.target.value)}
          errors={form.errorsFor('country')}
        />
        <TextField
          label={t('auth.fields.referralCode')}
          autoComplete="off"
          {...text('referral_code')}
        />
        <Checkbox
          name="privacy_policy"
          label={
            <>
              {t('auth.register.acceptPrivacy')}{' '}
              <Link to={to('/privacy-policy')} target="_blank">
                {t('nav.privacyPolicy')}
              </Link>
            </>
          }
          checked={form.values.privacy_policy}
          onChange={(event) => form.setField('privacy_policy', event.target.checked)}
          errors={form.errorsFor('privacy_policy')}
        />
        <Checkbox
          name="not_restricted_resident"
          label={t('auth.register.notResident')}
          checked={form.values.not_restricted_resident}
          onChange={(event) => form.setField('not_restricted_resident', event.target.checked)}
          errors={form.errorsFor('not_restricted_resident')}
        />
        <Button type="submit" block size="l" loading={form.submitting}>
          {t('auth.register.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
