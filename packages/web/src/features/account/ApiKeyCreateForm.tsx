import { type ApiKeyScope, apiKeyCreateRequest, apiKeyScopes } from '@lattice/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/apiError';
import { translateMessage } from '../../i18n/messageKeys';
import { useForm } from '../../lib/form';
import { responseNotice, submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { Checkbox, TextField } from '../../ui/Field';
import styles from './account.module.css';
import { accountApi, accountKeys, type CreatedApiKey } from './accountApi';

interface CreateValues {
  name: string;
  totp: string;
  scopes: ApiKeyScope[];
  ipAllowList: string;
}

const initial: CreateValues = { name: '', totp: '', scopes: ['read', 'trade'], ipAllowList: '' };

/** The allow-list as typed (commas, spaces or lines) → the addresses. */
function addressesOf(text: string): string[] {
  return text.split(/[\s,]+/).filter((address) => address !== '');
}

function prepare(values: CreateValues) {
  return {
    ...values,
    name: values.name.trim() || undefined,
    ipAllowList: addressesOf(values.ipAllowList),
  };
}

/** A new API key: scopes (withdraw off unless chosen), optional IP allow-list, 2FA code. */
export function ApiKeyCreateForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm({
    initial,
    schema: apiKeyCreateRequest,
    prepare,
    onSubmit: async (body) => {
      try {
        const created = await accountApi.createApiKey(body);
        form.reset();
        await queryClient.invalidateQueries({ queryKey: accountKeys.apiKeys });
        submitNotice(t('account.apiKeys.created'));
        onCreated(created);
      } catch (error) {
        // The first message of the server, as SPEC.md §8 asks, and beside its field.
        if (isApiError(error)) responseNotice(translateMessage(error.firstMessage, t));
        throw error;
      }
    },
  });
  const toggleScope = (scope: ApiKeyScope, on: boolean) =>
    form.setField(
      'scopes',
      on ? [...form.values.scopes, scope] : form.values.scopes.filter((kept) => kept !== scope),
    );

  return (
    <form onSubmit={form.handleSubmit} noValidate>
      <div className={styles.formRow}>
        <TextField
          label={t('account.apiKeys.name')}
          name="name"
          value={form.values.name}
          onChange={(event) => form.setField('name', event.target.value)}
          errors={form.errorsFor('name')}
        />
        <TextField
          label={t('auth.fields.twoFactorCode')}
          name="totp"
          inputMode="numeric"
          maxLength={6}
          value={form.values.totp}
          onChange={(event) => form.setField('totp', event.target.value.trim())}
          errors={form.errorsFor('totp')}
        />
      </div>
      <fieldset className={styles.scopes}>
        <legend className={styles.muted}>{t('account.apiKeys.scopes')}</legend>
        {apiKeyScopes.map((scope) => (
          <Checkbox
            key={scope}
            name={`scope-${scope}`}
            label={t(`account.apiKeys.scope.${scope}`)}
            checked={form.values.scopes.includes(scope)}
            onChange={(event) => toggleScope(scope, event.target.checked)}
          />
        ))}
      </fieldset>
      {form.errorsFor('scopes').map((error) => (
        <p key={error} className={styles.warning}>
          {error}
        </p>
      ))}
      <label className={styles.muted} htmlFor="api-key-ips">
        {t('account.apiKeys.ipAllowList')}
      </label>
      <textarea
        id="api-key-ips"
        className={styles.textarea}
        name="ipAllowList"
        placeholder="203.0.113.7, 198.51.100.0/24"
        value={form.values.ipAllowList}
        onChange={(event) => form.setField('ipAllowList', event.target.value)}
      />
      {form.errorsFor('ipAllowList').map((error) => (
        <p key={error} className={styles.warning}>
          {error}
        </p>
      ))}
      <p className={styles.muted}>{t('account.apiKeys.ipHint')}</p>
      <Button type="submit" loading={form.submitting}>
        {t('account.apiKeys.create')}
      </Button>
    </form>
  );
}
