import { noticeDurationsMs } from '../../lib/notices';
import { createStore } from '../../lib/store';
import { showToast } from '../../ui/toastStore';

/** A finished order as the notices word it. */
export interface FinishedOrderNotice {
  id: number;
  market: string;
  /** 1 sell, 2 buy. */
  side: number;
  /** What traded (deal_stock); "0" when the order ended without a trade. */
  filled: string;
  /** The average price of its trades (deal_money ÷ deal_stock); null without a trade. */
  averagePrice: string | null;
  /** Unix seconds. */
  ftime: number;
}

/** Only the newest finished orders are kept (SPEC.md §4). */
export const finishedOrdersKeptMax = 5;
/** Finished orders are announced once none has come for this long (SPEC.md §9). */
export const finishedOrderDebounceMs = 200;

/** How the notices word finished orders; the shell sets them in the user's language. */
export interface FinishedOrderWording {
  one(order: FinishedOrderNotice): string;
  many(count: number): string;
}

export const finishedOrdersStore = createStore<FinishedOrderNotice[]>([]);
let pending: FinishedOrderNotice[] = [];
let debounce: ReturnType<typeof setTimeout> | undefined;
let wording: FinishedOrderWording = {
  one: (order) => `${order.market} #${order.id}`,
  many: (count) => String(count),
};

export function setFinishedOrderWording(next: FinishedOrderWording): void {
  wording = next;
}

/**
 * Records a finished order (socket `order.update` event 3) and announces it. The debounce only
 * delays the toasts: every order of a burst keeps its own line, because orders that finish
 * together need not have anything in common (a cancel and a market fill a moment later).
 * A burst larger than the kept list is summed up in one toast instead of a pile of them.
 */
export function notifyOrderFinished(order: FinishedOrderNotice): void {
  finishedOrdersStore.set((orders) =>
    [order, ...orders.filter((kept) => kept.id !== order.id)].slice(0, finishedOrdersKeptMax),
  );
  pending = [...pending.filter((queued) => queued.id !== order.id), order];
  clearTimeout(debounce);
  debounce = setTimeout(() => {
    const burst = pending;
    pending = [];
    const texts =
      burst.length > finishedOrdersKeptMax
        ? [wording.many(burst.length)]
        : burst.map((finished) => wording.one(finished));
    for (const text of texts) {
      showToast({ kind: 'success', text, durationMs: noticeDurationsMs.finishedOrder });
    }
  }, finishedOrderDebounceMs);
}
