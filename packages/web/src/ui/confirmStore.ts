import { createStore } from '../lib/store';

export interface ConfirmRequest {
  title: string;
  text?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
}

interface ConfirmState {
  request: ConfirmRequest | null;
  /** null while the dialog is open, then true or false (SPEC.md §4). */
  result: boolean | null;
}

export const confirmStore = createStore<ConfirmState>({ request: null, result: null });
let settle: ((confirmed: boolean) => void) | null = null;

/** Opens the app-wide confirmation dialog; resolves true on confirm, false otherwise. */
export function confirm(request: ConfirmRequest): Promise<boolean> {
  settle?.(false);
  confirmStore.set({ request, result: null });
  return new Promise((resolve) => {
    settle = resolve;
  });
}

export function answerConfirm(confirmed: boolean): void {
  const resolve = settle;
  settle = null;
  confirmStore.set({ request: null, result: confirmed });
  resolve?.(confirmed);
}
