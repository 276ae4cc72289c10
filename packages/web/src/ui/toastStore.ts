import { createStore } from '../lib/store';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  title?: string;
  text: string;
  durationMs: number;
}

/** At most this many toasts stay on screen; older ones give way. */
const toastsShownMax = 5;

export const toastStore = createStore<Toast[]>([]);
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export function dismissToast(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  toastStore.set((toasts) => toasts.filter((toast) => toast.id !== id));
}

/** Shows a toast for `durationMs`; returns its id. */
export function showToast(toast: Omit<Toast, 'id'>): number {
  const id = nextId++;
  toastStore.set((toasts) => [...toasts, { ...toast, id }].slice(-toastsShownMax));
  timers.set(
    id,
    setTimeout(() => dismissToast(id), toast.durationMs),
  );
  return id;
}

export function clearToasts(): void {
  for (const id of timers.keys()) dismissToast(id);
}
