import { useTranslation } from 'react-i18next';
import { TextField } from '../../ui/Field';
import { cleanAmountInput } from './amounts';
import styles from './wallet.module.css';
import { translateAll } from './walletMessages';

/** An amount input that reads numbers as the spec says, with a Max button and its balance. */
export function AmountField({
  label,
  value,
  onChange,
  errors,
  max,
  decimals,
  hint,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors: readonly string[];
  /** The largest amount the form accepts; the button fills it in. */
  max?: string;
  decimals?: number;
  hint?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={styles.row}>
      <TextField
        label={label}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(cleanAmountInput(event.target.value, decimals))}
        errors={translateAll(errors, t)}
        hint={hint}
      />
      {max !== undefined && (
        <button
          type="button"
          className={styles.linkButton}
          style={{ marginBottom: 24 }}
          onClick={() => onChange(max)}
        >
          {t('wallet.max')}
        </button>
      )}
    </div>
  );
}
