import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from 'react';
import styles from './controls.module.css';

interface FieldFrameProps {
  id: string;
  label: ReactNode;
  errors?: readonly string[];
  hint?: ReactNode;
  children: ReactNode;
}

function FieldFrame({ id, label, errors, hint, children }: FieldFrameProps) {
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {children}
      {hint && !errors?.length && (
        <div className={styles.hint} id={`${id}-hint`}>
          {hint}
        </div>
      )}
      {errors && errors.length > 0 && (
        <ul className={styles.errors} id={`${id}-errors`} role="alert">
          {errors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: ReactNode;
  errors?: readonly string[];
  hint?: ReactNode;
}

/** A labelled input with its messages; the messages are tied to it for screen readers. */
export function TextField({ label, errors, hint, id, className, ...rest }: TextFieldProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const invalid = Boolean(errors?.length);
  return (
    <FieldFrame id={fieldId} label={label} errors={errors} hint={hint}>
      <input
        {...rest}
        id={fieldId}
        className={`${styles.input} ${invalid ? styles.invalid : ''} ${className ?? ''}`}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${fieldId}-errors` : hint ? `${fieldId}-hint` : undefined}
      />
    </FieldFrame>
  );
}

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: ReactNode;
  errors?: readonly string[];
  options: readonly { value: string; label: string }[];
  placeholder?: string;
}

export function SelectField({
  label,
  errors,
  options,
  placeholder,
  id,
  ...rest
}: SelectFieldProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const invalid = Boolean(errors?.length);
  return (
    <FieldFrame id={fieldId} label={label} errors={errors}>
      <select
        {...rest}
        id={fieldId}
        className={`${styles.input} ${invalid ? styles.invalid : ''}`}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${fieldId}-errors` : undefined}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  errors?: readonly string[];
}

export function Checkbox({ label, errors, id, ...rest }: CheckboxProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const invalid = Boolean(errors?.length);
  return (
    <div className={styles.checkField}>
      <input
        {...rest}
        type="checkbox"
        id={fieldId}
        className={styles.checkbox}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${fieldId}-errors` : undefined}
      />
      <label htmlFor={fieldId}>{label}</label>
      {invalid && (
        <ul className={styles.errors} id={`${fieldId}-errors`} role="alert">
          {errors?.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
