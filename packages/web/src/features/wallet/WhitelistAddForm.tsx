import { whitelistAddBody } from '@lattice/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useForm } from '../../lib/form';
import { submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { TwoFactorCodeField } from '../../ui/TwoFactorCodeField';
import styles from './wallet.module.css';
import { walletApi, walletKeys } from './walletApi';
import { translateAll, walletMessage } from './walletMessages';

/** Saves a withdrawal address (SPEC.md §3 "Saved address"); the 2FA code confirms it. */
export function WhitelistAddForm({ coins }: { coins: readonly string[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm({
    initial: { name: '', coin: coins[0] ?? '', address: '', memo: '', code: '' },
    schema: whitelistAddBody,
    prepare: (values) => ({ ...values, memo: values.memo.trim() === '' ? undefined : values.memo }),
    onSubmit: async (body) => {
      await walletApi.addWhitelisted(body);
      await queryClient.invalidateQueries({ queryKey: walletKeys.whitelist });
      submitNotice(t('wallet.whitelist.added'));
      form.reset({ ...form.values, name: '', address: '', memo: '', code: '' });
    },
  });
  const errors = (name: 'name' | 'coin' | 'address' | 'memo' | 'code') =>
    translateAll(form.errorsFor(name), t);
  return (
    <form
      onSubmit={form.handleSubmit}
      noValidate
      className={styles.form}
      aria-label={t('wallet.whitelist.add')}
    >
      <TextField
        label={t('wallet.whitelist.name')}
        name="name"
        value={form.values.name}
        onChange={(event) => form.setField('name', event.target.value)}
        errors={errors('name')}
      />
      <SelectField
        label={t('wallet.columns.asset')}
        name="coin"
        value={form.values.coin}
        options={coins.map((coin) => ({ value: coin, label: coin }))}
        onChange={(event) => form.setField('coin', event.target.value)}
        errors={errors('coin')}
      />
      <TextField
        label={t('wallet.columns.address')}
        name="address"
        autoComplete="off"
        spellCheck={false}
        value={form.values.address}
        onChange={(event) => form.setField('address', event.target.value)}
        errors={errors('address')}
      />
      <TextField
        label={t('wallet.whitelist.memoOptional')}
        name="memo"
        autoComplete="off"
        value={form.values.memo}
        onChange={(event) => form.setField('memo', event.target.value)}
        errors={errors('memo')}
      />
      <TwoFactorCodeField
        label={t('auth.fields.twoFactorCode')}
        value={form.values.code}
        onChange={(code) => form.setField('code', code)}
        errors={errors('code')}
      />
      {form.formError && <p className={styles.warning}>{walletMessage(form.formError, t)}</p>}
      <Button type="submit" loading={form.submitting}>
        {t('wallet.whitelist.save')}
      </Button>
    </form>
  );
}
