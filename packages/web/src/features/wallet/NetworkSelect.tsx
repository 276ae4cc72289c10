import { useTranslation } from 'react-i18next';
import { SelectField } from '../../ui/Field';
import type { PaymentMethod } from './walletApi';

/** The network an asset moves on (SPEC.md §3 "Networks"). */
export function NetworkSelect({
  methods,
  value,
  onChange,
}: {
  methods: readonly PaymentMethod[];
  value: string;
  onChange: (network: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <SelectField
      label={t('wallet.columns.network')}
      name="network"
      value={value}
      options={methods.map((method) => ({ value: method.key, label: method.name }))}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
