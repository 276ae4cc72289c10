import { type VoucherJson, voucherCodeBody, voucherCreateBody } from '@lattice/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useForm } from '../../lib/form';
import { submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { AmountField } from './AmountField';
import { withAmountRules } from './amountRules';
import styles from './wallet.module.css';
import { type WalletBalance, walletApi, walletKeys } from './walletApi';
import { translateAll, walletMessage } from './walletMessages';

/** Creates a code: its amount is held on the main balance until redeemed or cancelled. */
export function CreateCodeForm({
  balances,
  onCreated,
}: {
  balances: readonly WalletBalance[];
  onCreated: (code: VoucherJson) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const initialTicker = balances[0]?.ticker ?? '';
  const availableOf = (ticker: string) =>
    balances.find((row) => row.ticker === ticker)?.mainBalance;
  // The schema reads the chosen asset's balance from the values it checks.
  const form = useForm({
    initial: { ticker: initialTicker, amount: '' },
    schema: {
      safeParse: (input: unknown) =>
        withAmountRules(voucherCreateBody, {
          available: availableOf(String((input as { ticker?: unknown }).ticker ?? '')),
        }).safeParse(input),
    },
    onSubmit: async (body) => {
      const code = await walletApi.createCode(body.ticker, body.amount);
      await queryClient.invalidateQueries({ queryKey: walletKeys.codes });
      await queryClient.invalidateQueries({ queryKey: walletKeys.balances });
      form.reset({ ticker: body.ticker, amount: '' });
      submitNotice(t('wallet.codes.created'));
      onCreated(code);
    },
  });
  const available = availableOf(form.values.ticker) ?? '0';
  return (
    <form
      onSubmit={form.handleSubmit}
      noValidate
      className={styles.form}
      aria-label={t('wallet.codes.create')}
    >
      <SelectField
        label={t('wallet.columns.asset')}
        name="ticker"
        value={form.values.ticker}
        options={balances.map((row) => ({ value: row.ticker, label: row.ticker }))}
        onChange={(event) => form.setField('ticker', event.target.value)}
        errors={translateAll(form.errorsFor('ticker'), t)}
      />
      <AmountField
        label={t('wallet.amount')}
        value={form.values.amount}
        onChange={(value) => form.setField('amount', value)}
        errors={form.errorsFor('amount')}
        max={available}
        hint={t('wallet.availableOf', { amount: available, ticker: form.values.ticker })}
      />
      {form.formError && (
        <p className={styles.warning} role="alert">
          {walletMessage(form.formError, t)}
        </p>
      )}
      <Button type="submit" loading={form.submitting}>
        {t('wallet.codes.createSubmit')}
      </Button>
    </form>
  );
}

/** Redeems another user's code onto the main balance. */
export function ActivateCodeForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm({
    initial: { code: '' },
    schema: voucherCodeBody,
    onSubmit: async ({ code }) => {
      const redeemed = await walletApi.applyCode(code);
      await queryClient.invalidateQueries({ queryKey: walletKeys.codes });
      await queryClient.invalidateQueries({ queryKey: walletKeys.balances });
      form.reset();
      submitNotice(
        t('wallet.codes.activated', { amount: redeemed.amount, ticker: redeemed.ticker }),
      );
    },
  });
  return (
    <form
      onSubmit={form.handleSubmit}
      noValidate
      className={styles.form}
      aria-label={t('wallet.codes.activate')}
    >
      <TextField
        label={t('wallet.codes.code')}
        name="code"
        autoComplete="off"
        spellCheck={false}
        value={form.values.code}
        onChange={(event) => form.setField('code', event.target.value.trim())}
        errors={translateAll(form.errorsFor('code'), t)}
      />
      {form.formError && (
        <p className={styles.warning} role="alert">
          {walletMessage(form.formError, t)}
        </p>
      )}
      <Button type="submit" loading={form.submitting}>
        {t('wallet.codes.activateSubmit')}
      </Button>
    </form>
  );
}
