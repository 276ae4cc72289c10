import { useStore } from '../lib/store';
import { Button } from './Button';
import { answerConfirm, confirmStore } from './confirmStore';
import { Modal } from './Modal';

export interface ConfirmDialogProps {
  labels: { confirm: string; cancel: string; close: string };
}

/** The app-wide confirmation dialog; `confirm()` opens it. */
export function ConfirmDialog({ labels }: ConfirmDialogProps) {
  const { request } = useStore(confirmStore);
  if (!request) return null;
  return (
    <Modal
      title={request.title}
      closeLabel={labels.close}
      onClose={() => answerConfirm(false)}
      footer={
        <>
          <Button variant="secondary" onClick={() => answerConfirm(false)}>
            {request.cancelLabel ?? labels.cancel}
          </Button>
          <Button
            variant={request.danger ? 'danger' : 'primary'}
            onClick={() => answerConfirm(true)}
          >
            {request.confirmLabel ?? labels.confirm}
          </Button>
        </>
      }
    >
      {request.text && <p>{request.text}</p>}
    </Modal>
  );
}
