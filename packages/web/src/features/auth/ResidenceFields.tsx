import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLanguage, useLocalePath } from '../../i18n/useLanguage';
import { Checkbox, SelectField, TextField } from '../../ui/Field';
import { countryOptions } from './countries';

/** The part of sign-up that e-mail and Google sign-up share. */
export interface ResidenceValues {
  country: string;
  referral_code: string;
  privacy_policy: boolean;
  not_restricted_resident: boolean;
}

export interface ResidenceFieldsProps {
  values: ResidenceValues;
  set: <K extends keyof ResidenceValues>(name: K, value: ResidenceValues[K]) => void;
  errorsFor: (name: keyof ResidenceValues) => string[];
}

/** Country (US refused), referral code, privacy policy and the residence declaration. */
export function ResidenceFields({ values, set, errorsFor }: ResidenceFieldsProps) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const language = useLanguage();
  const countries = useMemo(() => countryOptions(language), [language]);
  return (
    <>
      <SelectField
        label={t('auth.fields.country')}
        name="country"
        placeholder={t('auth.register.chooseCountry')}
        options={countries}
        value={values.country}
        onChange={(event) => set('country', event.target.value)}
        errors={errorsFor('country')}
      />
      <TextField
        label={t('auth.fields.referralCode')}
        name="referral_code"
        autoComplete="off"
        value={values.referral_code}
        onChange={(event) => set('referral_code', event.target.value)}
        errors={errorsFor('referral_code')}
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
        checked={values.privacy_policy}
        onChange={(event) => set('privacy_policy', event.target.checked)}
        errors={errorsFor('privacy_policy')}
      />
      <Checkbox
        name="not_restricted_resident"
        label={t('auth.register.notResident')}
        checked={values.not_restricted_resident}
        onChange={(event) => set('not_restricted_resident', event.target.checked)}
        errors={errorsFor('not_restricted_resident')}
      />
    </>
  );
}

/** An empty referral code is no referral code. */
export function withoutEmptyReferral<T extends { referral_code: string }>(values: T) {
  const { referral_code, ...rest } = values;
  return referral_code.trim() === '' ? rest : values;
}
