import type { WithdrawalJson } from '@lattice/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/apiError';
import { responseNotice, submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirmStore';
import { walletApi, walletKeys } from './walletApi';
import { walletMessage } from './walletMessages';

/** Cancels a withdrawal that is not being sent yet; its held funds come back. */
export function CancelWithdrawalButton({ withdrawal }: { withdrawal: WithdrawalJson }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const cancel = async () => {
    const confirmed = await confirm({
      title: t('wallet.withdraw.cancelTitle'),
      text: t('wallet.withdraw.cancelText', {
        amount: withdrawal.amount,
        ticker: withdrawal.ticker,
      }),
      danger: true,
    });
    if (!confirmed) return;
    setBusy(true);
    try {
      await walletApi.cancelWithdrawal(withdrawal.id);
      submitNotice(t('wallet.withdraw.cancelled'));
    } catch (error) {
      if (isApiError(error)) responseNotice(walletMessage(error.firstMessage, t));
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: walletKeys.history });
      await queryClient.invalidateQueries({ queryKey: walletKeys.balances });
    }
  };
  return (
    <Button variant="ghost" size="s" loading={busy} onClick={() => void cancel()}>
      {t('wallet.withdraw.cancel')}
    </Button>
  );
}
