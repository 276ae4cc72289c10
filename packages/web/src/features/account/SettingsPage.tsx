import { logoutTimesMinutes } from '@lattice/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { isApiError } from '../../api/apiError';
import {
  isLanguage,
  languageNames,
  languages,
  localizePath,
  splitLanguage,
} from '../../i18n/languages';
import { translateMessage } from '../../i18n/messageKeys';
import { useLanguage } from '../../i18n/useLanguage';
import { responseNotice, submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/Field';
import { Panel, StateMessage } from '../../ui/Panel';
import { AccountPage } from './AccountPage';
import { accountApi, accountKeys, type GeneralSettings, generalSettingsQuery } from './accountApi';
import { CustomFeeSetting } from './CustomFeeSetting';

/** Interface and mail language, fee payment in LTT, and the idle sign-out time. */
export default function SettingsPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const settings = useQuery(generalSettingsQuery);
  const [saving, setSaving] = useState<'language' | 'logoutTime' | null>(null);

  const save = async (
    what: 'language' | 'logoutTime',
    body: { language?: string; logoutTime?: number },
  ) => {
    setSaving(what);
    try {
      await accountApi.saveGeneral(body);
      queryClient.setQueryData(accountKeys.general, (previous: GeneralSettings | undefined) =>
        previous ? { ...previous, ...body } : previous,
      );
      return true;
    } catch (error) {
      if (isApiError(error)) responseNotice(translateMessage(error.firstMessage, t));
      return false;
    } finally {
      setSaving(null);
    }
  };

  const changeLanguage = async (next: string) => {
    if (!isLanguage(next) || !(await save('language', { language: next }))) return;
    const { path } = splitLanguage(location.pathname);
    navigate(localizePath(path, next));
  };

  const changeLogoutTime = async (minutes: number) => {
    if (await save('logoutTime', { logoutTime: minutes }))
      submitNotice(t('account.settings.saved'));
  };

  return (
    <AccountPage title={t('routes.settings')}>
      {settings.isPending && <StateMessage kind="loading">{t('common.loading')}</StateMessage>}
      {settings.isError && (
        <StateMessage
          kind="error"
          action={
            <Button size="s" variant="secondary" onClick={() => void settings.refetch()}>
              {t('common.retry')}
            </Button>
          }
        >
          {t('account.loadFailed')}
        </StateMessage>
      )}
      {settings.data && (
        <>
          <Panel title={t('account.settings.general')}>
            <SelectField
              label={t('account.settings.language')}
              name="language"
              value={language}
              disabled={saving === 'language'}
              options={languages.map((code) => ({ value: code, label: languageNames[code] }))}
              onChange={(event) => void changeLanguage(event.target.value)}
            />
            <SelectField
              label={t('account.settings.logoutTime')}
              name="logoutTime"
              value={String(settings.data.logoutTime)}
              disabled={saving === 'logoutTime'}
              options={logoutTimesMinutes.map((minutes) => ({
                value: String(minutes),
                label: t('account.settings.minutes', { minutes }),
              }))}
              onChange={(event) => void changeLogoutTime(Number(event.target.value))}
            />
          </Panel>
          <Panel title={t('account.settings.fees')}>
            <CustomFeeSetting settings={settings.data} />
          </Panel>
        </>
      )}
    </AccountPage>
  );
}
