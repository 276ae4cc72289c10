import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/apiError';
import { resetSession } from '../../api/session';
import { translateMessage } from '../../i18n/messageKeys';
import { useLanguage, useLocalePath } from '../../i18n/useLanguage';
import { responseNotice, submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirmStore';
import { Badge, Panel, StateMessage } from '../../ui/Panel';
import styles from './account.module.css';
import { accountApi, accountKeys, type SessionRow, sessionsQuery } from './accountApi';

/** "Chrome 126 on Linux" from a user-agent string; the raw string when it is not known. */
export function describeUserAgent(userAgent: string): string {
  const browser =
    /(Edg|OPR|Firefox|Chrome|Safari)\/(\d+)/.exec(userAgent.replace('HeadlessChrome', 'Chrome')) ??
    null;
  const system = /(Windows|Android|iPhone|iPad|Mac OS X|Linux)/.exec(userAgent)?.[1];
  if (!browser || !system) return userAgent || '—';
  const names: Record<string, string> = { Edg: 'Edge', OPR: 'Opera' };
  const name = names[browser[1] ?? ''] ?? browser[1];
  return `${name} ${browser[2]} · ${system === 'Mac OS X' ? 'macOS' : system}`;
}

function formatTime(seconds: number, language: string): string {
  return new Date(seconds * 1000).toLocaleString(language);
}

/** Signed-in sessions; ending one is optimistic and undone when the server refuses. */
export function SessionsPanel() {
  const { t } = useTranslation();
  const language = useLanguage();
  const to = useLocalePath();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQuery);
  const [endingAll, setEndingAll] = useState(false);

  const leaveForFrontPage = async () => {
    await navigate(to('/'));
    await resetSession(queryClient);
  };

  const terminate = async (session: SessionRow) => {
    const previous = queryClient.getQueryData<SessionRow[]>(accountKeys.sessions);
    queryClient.setQueryData<SessionRow[]>(accountKeys.sessions, (rows) =>
      rows?.filter((row) => row.id !== session.id),
    );
    try {
      await accountApi.terminateSession(session.id);
      // Ending this very session signs the user out: as on sign-out, the page starts afresh.
      if (session.isCurrent) window.location.assign(to('/'));
      else submitNotice(t('account.sessions.ended'));
    } catch (error) {
      queryClient.setQueryData(accountKeys.sessions, previous);
      if (isApiError(error)) responseNotice(translateMessage(error.firstMessage, t));
    }
  };

  const terminateAll = async () => {
    const confirmed = await confirm({
      title: t('account.sessions.endAllTitle'),
      text: t('account.sessions.endAllText'),
      danger: true,
    });
    if (!confirmed) return;
    setEndingAll(true);
    try {
      await accountApi.terminateAllSessions();
      await leaveForFrontPage();
    } catch (error) {
      if (isApiError(error)) responseNotice(translateMessage(error.firstMessage, t));
    } finally {
      setEndingAll(false);
    }
  };

  return (
    <Panel
      title={t('account.sessions.title')}
      actions={
        <Button
          size="s"
          variant="secondary"
          loading={endingAll}
          onClick={() => void terminateAll()}
        >
          {t('account.sessions.endAll')}
        </Button>
      }
    >
      {sessions.isPending && <StateMessage kind="loading">{t('common.loading')}</StateMessage>}
      {sessions.isError && <StateMessage kind="error">{t('account.loadFailed')}</StateMessage>}
      {sessions.data?.length === 0 && (
        <StateMessage kind="empty">{t('common.noItems')}</StateMessage>
      )}
      {sessions.data && sessions.data.length > 0 && (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th>{t('account.sessions.device')}</th>
                <th className={styles.wideOnly}>{t('account.sessions.ip')}</th>
                <th className={styles.wideOnly}>{t('account.sessions.lastActivity')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((session) => (
                <tr key={session.id}>
                  <td title={session.userAgent}>
                    {describeUserAgent(session.userAgent)}{' '}
                    {session.isCurrent && (
                      <Badge tone="main">{t('account.sessions.current')}</Badge>
                    )}
                    <span className={styles.phoneDetails}>
                      {session.ipAddress} · {formatTime(session.lastActivity, language)}
                    </span>
                  </td>
                  <td className={`${styles.nowrap} ${styles.wideOnly}`}>{session.ipAddress}</td>
                  <td className={styles.wideOnly}>{formatTime(session.lastActivity, language)}</td>
                  <td>
                    <Button size="s" variant="ghost" onClick={() => void terminate(session)}>
                      {t('account.sessions.end')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}
