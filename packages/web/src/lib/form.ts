import { authMessages } from '@lattice/contracts';
import { type FormEvent, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../api/apiError';
import { translateMessage } from '../i18n/messageKeys';

/** What a form needs of a schema: zod's `safeParse` (the shared contracts are zod schemas). */
export interface FormSchema<Output> {
  safeParse(input: unknown):
    | { success: true; data: Output }
    | {
        success: false;
        error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
      };
}

type Errors = Record<string, string[]>;

function errorsFromIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '_form';
    errors[field] ??= [];
    if (!errors[field].includes(issue.message)) errors[field].push(issue.message);
  }
  return errors;
}

export interface UseFormOptions<Values, Output> {
  initial: Values;
  schema: FormSchema<Output>;
  onSubmit: (data: Output) => Promise<void> | void;
  /** Shapes the values before they are checked (e.g. drops an empty optional field). */
  prepare?: (values: Values) => unknown;
  /**
   * Confirmation field → the field it repeats. The schema checks this too, but only once every
   * other field is valid; here it shows as soon as the confirmation is typed.
   */
  confirmations?: Partial<Record<keyof Values & string, keyof Values & string>>;
}

function confirmationErrors<Values extends object>(
  values: Values,
  confirmations: UseFormOptions<Values, unknown>['confirmations'],
): Errors {
  const errors: Errors = {};
  for (const [confirmation, original] of Object.entries(confirmations ?? {})) {
    const record = values as Record<string, unknown>;
    if (record[confirmation] !== '' && record[confirmation] !== record[original as string]) {
      errors[confirmation] = [authMessages.shouldMatch];
    }
  }
  return errors;
}

/**
 * A form checked by the shared schema as the user types: a field shows its messages once it
 * was changed or the form was sent; the server's field errors show beside the same fields.
 */
export function useForm<Values extends object, Output>({
  initial,
  schema,
  onSubmit,
  prepare,
  confirmations,
}: UseFormOptions<Values, Output>) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(initial);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const parsed = useMemo(
    () => schema.safeParse(prepare ? prepare(values) : values),
    [schema, prepare, values],
  );
  const clientErrors: Errors = {
    ...confirmationErrors(values, confirmations),
    ...(parsed.success ? {} : errorsFromIssues(parsed.error.issues)),
  };

  const setField = useCallback(<K extends keyof Values>(name: K, value: Values[K]) => {
    setValues((previous) => ({ ...previous, [name]: value }));
    setTouched((previous) => ({ ...previous, [name as string]: true }));
    setServerErrors((previous) => {
      if (!previous[name as string]) return previous;
      const { [name as string]: _cleared, ...rest } = previous;
      return rest;
    });
  }, []);

  const errorsFor = (name: keyof Values & string): string[] => {
    const shown = submitted || touched[name] ? (clientErrors[name] ?? []) : [];
    const messages = [...shown, ...(serverErrors[name] ?? [])];
    return [...new Set(messages.map((message) => translateMessage(message, t)))];
  };

  const handleSubmit = async (event?: FormEvent) => {
    event?.preventDefault();
    setSubmitted(true);
    setFormError(null);
    if (!parsed.success) return;
    setSubmitting(true);
    try {
      await onSubmit(parsed.data);
    } catch (error) {
      if (!isApiError(error)) throw error;
      setServerErrors(error.fieldErrors);
      const hasFieldErrors = Object.keys(error.fieldErrors).some((field) => field in values);
      if (!hasFieldErrors) setFormError(translateMessage(error.firstMessage, t));
    } finally {
      setSubmitting(false);
    }
  };

  const reset = (next: Values = initial) => {
    setValues(next);
    setTouched({});
    setSubmitted(false);
    setServerErrors({});
    setFormError(null);
  };

  const formLevel = submitted ? (clientErrors._form ?? []) : [];
  return {
    values,
    setField,
    errorsFor,
    formError: formError ?? (formLevel[0] ? translateMessage(formLevel[0], t) : null),
    submitting,
    handleSubmit,
    reset,
    isValid: parsed.success,
  };
}
