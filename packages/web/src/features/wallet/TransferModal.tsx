import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from '../../lib/form';
import { submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { AmountField } from './AmountField';
import { amountRequired, withAmountRules } from './amountRules';
import styles from './wallet.module.css';
import { type Account, type WalletBalance, walletApi, walletKeys } from './walletApi';
import { walletMessage } from './walletMessages';

const accounts: readonly Account[] = ['main', 'trade'];

/** Moves an asset between the main and the trade balance (API.md "Wallet"). */
export function TransferModal({
  balance,
  onClose,
}: {
  balance: WalletBalance;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [from, setFrom] = useState<Account>('main');
  const to: Account = from === 'main' ? 'trade' : 'main';
  const available = from === 'main' ? balance.mainBalance : balance.tradeAvailable;
  const form = useForm({
    initial: { amount: '' },
    schema: withAmountRules(amountRequired, { available }),
    onSubmit: async ({ amount }) => {
      await walletApi.transfer({ ticker: balance.ticker, amount, from, to });
      await queryClient.invalidateQueries({ queryKey: walletKeys.balances });
      submitNotice(t('wallet.transfer.done', { amount, ticker: balance.ticker }));
      onClose();
    },
  });
  const label = (account: Account) => t(`wallet.accounts.${account}`);

  return (
    <Modal
      title={t('wallet.transfer.title', { ticker: balance.ticker })}
      onClose={onClose}
      closeLabel={t('common.close')}
    >
      <form onSubmit={form.handleSubmit} noValidate className={styles.form}>
        <div className={styles.row}>
          <SelectField
            label={t('wallet.transfer.from')}
            value={from}
            options={accounts.map((account) => ({ value: account, label: label(account) }))}
            onChange={(event) => setFrom(event.target.value as Account)}
          />
          <Button
            variant="ghost"
            style={{ marginBottom: 16 }}
            aria-label={t('wallet.transfer.swap')}
            onClick={() => setFrom(to)}
          >
            ⇄
          </Button>
        </div>
        <p className={styles.note} data-testid="transfer-direction">
          {t('wallet.transfer.direction', { from: label(from), to: label(to) })}
        </p>
        <AmountField
          label={t('wallet.amount')}
          value={form.values.amount}
          onChange={(value) => form.setField('amount', value)}
          errors={form.errorsFor('amount')}
          max={available}
          hint={t('wallet.availableOf', { amount: available, ticker: balance.ticker })}
        />
        {form.formError && <p className={styles.warning}>{walletMessage(form.formError, t)}</p>}
        <Button type="submit" loading={form.submitting}>
          {t('wallet.transfer.submit')}
        </Button>
      </form>
    </Modal>
  );
}
