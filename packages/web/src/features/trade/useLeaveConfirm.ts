import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { confirm } from '../../ui/confirmStore';

/** While `dirty`, leaving the screen asks first: in the app, and on closing the tab (SPEC.md §5). */
export function useLeaveConfirm(dirty: boolean): void {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirm({ title: t('trade.leaveTitle'), text: t('trade.leaveText') }).then((leave) =>
      leave ? blocker.proceed() : blocker.reset(),
    );
  }, [blocker, t]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}
