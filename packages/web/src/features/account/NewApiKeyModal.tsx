import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import styles from './account.module.css';
import type { CreatedApiKey } from './accountApi';

function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size="s"
      variant="secondary"
      onClick={() =>
        void navigator.clipboard?.writeText(text).then(
          () => setCopied(true),
          () => undefined,
        )
      }
    >
      {copied ? t('common.copied') : t('common.copy')}
    </Button>
  );
}

/** The new key and its secret, shown this once only. */
export function NewApiKeyModal({
  created,
  onClose,
}: {
  created: CreatedApiKey;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      title={t('account.apiKeys.newTitle')}
      closeLabel={t('common.close')}
      onClose={onClose}
      footer={<Button onClick={onClose}>{t('account.apiKeys.saved')}</Button>}
    >
      <p className={styles.warning}>{t('account.apiKeys.secretOnce')}</p>
      <dl className={styles.rows}>
        <dt>{t('account.apiKeys.key')}</dt>
        <dd>
          <span className={styles.mono} data-testid="new-api-key">
            {created.key}
          </span>
          <CopyButton text={created.key} />
        </dd>
        <dt>{t('account.apiKeys.secret')}</dt>
        <dd>
          <span className={styles.mono} data-testid="new-api-secret">
            {created.secret}
          </span>
          <CopyButton text={created.secret} />
        </dd>
      </dl>
    </Modal>
  );
}
