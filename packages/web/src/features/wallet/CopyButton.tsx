import { useTranslation } from 'react-i18next';
import { notice, submitNotice } from '../../lib/notices';
import { Button } from '../../ui/Button';

/** Copies `text` to the clipboard and says so. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      submitNotice(t('wallet.copied'));
    } catch {
      // No clipboard (insecure page, denied permission): the text stays selectable on screen.
      notice(t('wallet.copyFailed'), 'warning');
    }
  };
  return (
    <Button variant="secondary" size="s" onClick={() => void copy()} aria-label={label}>
      {t('wallet.copy')}
    </Button>
  );
}
