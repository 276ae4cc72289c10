import { TextField, type TextFieldProps } from './Field';

export interface TwoFactorCodeFieldProps extends Omit<TextFieldProps, 'value' | 'onChange'> {
  value: string;
  /** The code as typed, without the spaces an authenticator app or a paste may add. */
  onChange: (code: string) => void;
}

/**
 * The 6-digit 2FA code input: the numeric keyboard on phones and the browser's one-time-code
 * autofill, named `code` as the API bodies are.
 */
export function TwoFactorCodeField({ value, onChange, ...rest }: TwoFactorCodeFieldProps) {
  return (
    <TextField
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      {...rest}
      value={value}
      onChange={(event) => onChange(event.target.value.trim())}
    />
  );
}
