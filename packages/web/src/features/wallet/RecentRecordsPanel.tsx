import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalePath } from '../../i18n/useLanguage';
import { Panel } from '../../ui/Panel';
import { RecordsTable } from './RecordsTable';

/** A currency's latest deposits or withdrawals, with a link to the whole history of that kind. */
export function RecentRecordsPanel({
  title,
  ...table
}: { title: string } & ComponentProps<typeof RecordsTable>) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <Panel
      title={title}
      actions={<Link to={to(`/history/${table.kind}`)}>{t('wallet.detail.allHistory')}</Link>}
    >
      <RecordsTable {...table} />
    </Panel>
  );
}
