import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../api/apiError';
import { resetSession } from '../../api/session';
import { translateMessage } from '../../i18n/messageKeys';
import { useLocalePath } from '../../i18n/useLanguage';
import { notice, responseNotice } from '../../lib/notices';
import { StateMessage } from '../../ui/Panel';
import { AuthCard } from './AuthCard';
import { authApi } from './authApi';

// A confirmation link works once: the two mounts of a development render share one call.
const confirmations = new Map<string, ReturnType<typeof authApi.confirmEmail>>();

function confirmOnce(token: string) {
  let call = confirmations.get(token);
  if (!call) {
    call = authApi.confirmEmail(token);
    confirmations.set(token, call);
  }
  return call;
}

/** The e-mailed confirmation link: confirms the address and signs the user in. */
export default function VerifyPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const token = search.get('token');
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!token) {
      responseNotice(t('validation.tokenRequired'), 'error', t('auth.verify.linkNotFull'));
      navigate(to('/login'), { replace: true });
      return;
    }
    let active = true;
    confirmOnce(token).then(
      async () => {
        await resetSession(queryClient);
        notice(t('auth.verify.confirmed'), 'success');
        if (active) navigate(to('/'), { replace: true });
      },
      (error: unknown) => {
        if (active) {
          setFailure(isApiError(error) ? translateMessage(error.firstMessage, t) : String(error));
        }
      },
    );
    return () => {
      active = false;
    };
  }, [token, navigate, to, t, queryClient]);

  return (
    <AuthCard title={t('auth.verify.title')}>
      {failure ? (
        <>
          <StateMessage kind="error">{failure}</StateMessage>
          <Link to={to('/login')}>{t('auth.backToLogin')}</Link>
        </>
      ) : (
        <StateMessage kind="loading">{t('auth.verify.checking')}</StateMessage>
      )}
    </AuthCard>
  );
}
