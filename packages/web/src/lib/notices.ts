import { showToast, type ToastKind } from '../ui/toastStore';

/** How long each kind of notice stays (SPEC.md §9). */
export const noticeDurationsMs = {
  notice: 5000,
  response: 11_000,
  submit: 3333,
  finishedOrder: 3333,
  kycError: 9999,
} as const;

/** A general notice. */
export function notice(text: string, kind: ToastKind = 'info', title?: string): void {
  showToast({ kind, text, title, durationMs: noticeDurationsMs.notice });
}

/** The answer to a request (mostly its error), which people need longer to read. */
export function responseNotice(text: string, kind: ToastKind = 'error', title?: string): void {
  showToast({ kind, text, title, durationMs: noticeDurationsMs.response });
}

/** A short confirmation that a form was saved. */
export function submitNotice(text: string): void {
  showToast({ kind: 'success', text, durationMs: noticeDurationsMs.submit });
}

const networkWarningThrottleMs = 200;
let lastNetworkWarningAt = Number.NEGATIVE_INFINITY;

/** The network warning, at most once per 200 ms however many calls fail together. */
export function networkWarning(text: string, now = Date.now()): boolean {
  if (now - lastNetworkWarningAt < networkWarningThrottleMs) return false;
  lastNetworkWarningAt = now;
  showToast({ kind: 'warning', text, durationMs: noticeDurationsMs.notice });
  return true;
}
