import { type WithdrawalFeeJson, type WithdrawalJson, withdrawalBody } from '@lattice/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/apiError';
import { useSessionUser } from '../../api/session';
import { useLocalePath } from '../../i18n/useLanguage';
import { useForm } from '../../lib/form';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { TwoFactorCodeField } from '../../ui/TwoFactorCodeField';
import { AmountField } from './AmountField';
import { amountMessages, type Issue, withRules } from './amountRules';
import { addAmounts, isDecimal, isZero, subtractAmounts } from './amounts';
import { NetworkSelect } from './NetworkSelect';
import { useDebounced } from './useDebounced';
import styles from './wallet.module.css';
import { type PaymentMethod, type WalletBalance, walletApi, walletKeys } from './walletApi';
import { translateAll, walletMessage } from './walletMessages';

const feeDelayMs = 300;
const required = 'Field is required';

const quoteKey = (ticker: string, network: string, amount: string) =>
  ['wallet', 'calcfee', ticker, network, amount] as const;

interface Values {
  network: string;
  address: string;
  memo: string;
  amount: string;
  code: string;
}

/**
 * The crypto withdrawal form of SPEC.md §3: network, address, memo, amount with Max, the fee
 * and total from the server as the amount is typed, and the 2FA code that confirms it.
 */
export function WithdrawForm({
  balance,
  methods,
  onCreated,
}: {
  balance: WalletBalance;
  methods: readonly PaymentMethod[];
  onCreated: (withdrawal: WithdrawalJson) => void;
}) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const twoFactor = user?.twoFactorEnabled === true;
  const ticker = balance.ticker;
  const whitelist = useQuery({ queryKey: walletKeys.whitelist, queryFn: walletApi.whitelist });
  const saved = (whitelist.data?.records ?? []).filter((row) => row.coin === ticker);

  const initial: Values = {
    network: methods[0]?.key ?? '',
    address: '',
    memo: '',
    amount: '',
    code: '',
  };
  const methodOf = (network: unknown) => methods.find((candidate) => candidate.key === network);
  // The fee the server quoted for this amount, else the network's fixed fee.
  const feeOf = (network: string, amount: string) =>
    queryClient.getQueryData<WithdrawalFeeJson>(quoteKey(ticker, network, amount))?.fee ??
    methodOf(network)?.fee.fixed ??
    '0';
  const form = useForm({
    initial,
    schema: withRules(withdrawalBody, (input) => {
      const network = String(input.network ?? '');
      const amount = String(input.amount ?? '');
      const method = methodOf(network);
      const issues: Issue[] = amountMessages(amount, {
        available: balance.mainBalance,
        fee: feeOf(network, amount),
        min: method?.minAmount,
      }).map((message) => ({ path: ['amount'], message }));
      if (method?.memo && String(input.memo ?? '') === '') {
        issues.push({ path: ['memo'], message: required });
      }
      return issues;
    }),
    prepare: (values: Values) => ({
      ...values,
      memo: values.memo.trim() === '' ? undefined : values.memo.trim(),
    }),
    onSubmit: async (body) => {
      const created = await walletApi.withdraw(ticker, { ...body, network: body.network ?? '' });
      form.setField('code', '');
      await queryClient.invalidateQueries({ queryKey: walletKeys.balances });
      await queryClient.invalidateQueries({ queryKey: walletKeys.history });
      await queryClient.invalidateQueries({ queryKey: walletKeys.withdrawLimit });
      onCreated(created);
    },
  });
  const { values } = form;
  const method = methodOf(values.network);
  const amount = useDebounced(values.amount, feeDelayMs);
  const quote = useQuery({
    queryKey: quoteKey(ticker, values.network, amount),
    queryFn: () => walletApi.calcFee(ticker, values.network, amount),
    enabled: isDecimal(amount) && !isZero(amount) && values.network !== '',
    staleTime: 10_000,
  });
  // Reading the quote's data subscribes this render to it (the query tracks what is read).
  const fee =
    quote.data?.amount === values.amount ? quote.data.fee : feeOf(values.network, values.amount);
  const max = subtractAmounts(balance.mainBalance, method?.fee.fixed ?? '0');
  const total = isDecimal(values.amount) ? addAmounts(values.amount, fee) : '0';

  const pick = (id: string) => {
    const row = saved.find((candidate) => String(candidate.id) === id);
    if (!row) return;
    form.setField('address', row.address);
    form.setField('memo', row.memo ?? '');
  };

  return (
    <form
      onSubmit={form.handleSubmit}
      noValidate
      className={styles.form}
      aria-label={t('wallet.withdraw.form')}
    >
      <NetworkSelect
        methods={methods}
        value={values.network}
        onChange={(network) => form.setField('network', network)}
      />
      {whitelist.data?.enabled && <p className={styles.note}>{t('wallet.withdraw.whitelistOn')}</p>}
      {saved.length > 0 && (
        <SelectField
          label={t('wallet.withdraw.saved')}
          value=""
          placeholder={t('wallet.withdraw.pickSaved')}
          options={saved.map((row) => ({
            value: String(row.id),
            label: `${row.name} — ${row.address}`,
          }))}
          onChange={(event) => pick(event.target.value)}
        />
      )}
      <TextField
        label={t('wallet.columns.address')}
        name="address"
        autoComplete="off"
        spellCheck={false}
        value={values.address}
        onChange={(event) => form.setField('address', event.target.value)}
        errors={translateAll(form.errorsFor('address'), t)}
      />
      {method?.memo && (
        <>
          <TextField
            label={t('wallet.memo')}
            name="memo"
            autoComplete="off"
            value={values.memo}
            onChange={(event) => form.setField('memo', event.target.value)}
            errors={translateAll(form.errorsFor('memo'), t)}
          />
          <p className={styles.warning}>{t('wallet.withdraw.memoWarning')}</p>
        </>
      )}
      <AmountField
        label={t('wallet.amount')}
        value={values.amount}
        onChange={(value) => form.setField('amount', value)}
        errors={form.errorsFor('amount')}
        max={max}
        hint={t('wallet.availableOf', { amount: balance.mainBalance, ticker })}
      />
      <dl className={styles.facts} data-testid="withdraw-summary">
        <dt>{t('wallet.withdraw.min')}</dt>
        <dd>
          {method?.minAmount ?? '0'} {ticker}
        </dd>
        <dt>{t('wallet.columns.fee')}</dt>
        <dd data-testid="withdraw-fee">
          {fee} {ticker}
        </dd>
        <dt>{t('wallet.withdraw.total')}</dt>
        <dd data-testid="withdraw-total">
          {total} {ticker}
        </dd>
      </dl>
      {quote.isError && !(isApiError(quote.error) && quote.error.status === 422) && (
        <p className={styles.warning}>{t('wallet.withdraw.feeFailed')}</p>
      )}
      {twoFactor ? (
        <TwoFactorCodeField
          label={t('auth.fields.twoFactorCode')}
          value={values.code}
          onChange={(code) => form.setField('code', code)}
          errors={translateAll(form.errorsFor('code'), t)}
        />
      ) : (
        <p className={styles.warning} data-testid="withdraw-needs-2fa">
          {t('wallet.withdraw.needsTwoFactor')}{' '}
          <Link to={to('/user/security-main')}>{t('wallet.withdraw.turnOnTwoFactor')}</Link>
        </p>
      )}
      {form.formError && <p className={styles.warning}>{walletMessage(form.formError, t)}</p>}
      <Button type="submit" loading={form.submitting} disabled={!twoFactor}>
        {t('wallet.withdraw.submit')}
      </Button>
    </form>
  );
}
