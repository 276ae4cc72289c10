import type { SessionUser } from '@lattice/contracts';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../ui/Panel';

/** Verified and pending are green, unverified red (SPEC.md §4). */
export function KycBadge({ kyc }: { kyc: SessionUser['kyc'] }) {
  const { t } = useTranslation();
  return <Badge tone={kyc === 'unverified' ? 'red' : 'green'}>{t(`kyc.${kyc}`)}</Badge>;
}
