import { googleRegisterRequest } from '@lattice/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useForm } from '../../lib/form';
import { Button } from '../../ui/Button';
import { FormError } from './AuthCard';
import styles from './auth.module.css';
import { authApi } from './authApi';
import { googleAuthQuery } from './GoogleAuthPage';
import {
  ResidenceFields,
  type ResidenceFieldsProps,
  type ResidenceValues,
  withoutEmptyReferral,
} from './ResidenceFields';
import { useSignedIn } from './useSignedIn';

/** The last step of sign-up with Google: where the user lives and what they accept. */
export function GoogleRegisterForm({ referralCode }: { referralCode: string }) {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const pending = useQuery(googleAuthQuery).data?.signUp ?? null;
  const initial: ResidenceValues = {
    country: '',
    privacy_policy: false,
    not_restricted_resident: false,
    referral_code: referralCode,
  };
  const form = useForm({
    initial,
    schema: googleRegisterRequest,
    prepare: withoutEmptyReferral,
    onSubmit: async (body) => {
      await authApi.registerWithGoogle(body);
      await signedIn();
    },
  });
  return (
    <form onSubmit={form.handleSubmit} noValidate>
      {pending && (
        <p className={styles.info}>{t('auth.register.googleAs', { email: pending.email })}</p>
      )}
      <FormError message={form.formError} />
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
