import { noticeDurationsMs } from '../../lib/notices';
import { createStore } from '../../lib/store';
import { showToast } from '../../ui/toastStore';

/** A finished order as the notifications list shows it (fields of the API's order object). */
export interface FinishedOrderNotice {
  id: number;
  market: string;
  /** 1 sell, 2 buy. */
  side: number;
  amount: string;
  price: string;
  /** Unix seconds. */
  ftime: number;
}

/** Only the newest finished orders are kept (SPEC.md §4). */
export const finishedOrdersKeptMax = 5;
/** Orders finishing together give one toast (SPEC.md §9). */
export const finishedOrderDebounceMs = 200;

export const finishedOrdersStore = createStore<FinishedOrderNotice[]>([]);
let pending: FinishedOrderNotice[] = [];
let debounce: ReturnType<typeof setTimeout> | undefined;
let describe: (orders: readonly FinishedOrderNotice[]) => string = (orders) =>
  orders.map((order) => `${order.market} #${order.id}`).join(', ');

/** How the toast words a burst of finished orders; the shell sets it in the user's language. */
export function setFinishedOrderDescriber(
  describer: (orders: readonly FinishedOrderNotice[]) => string,
): void {
  describe = describer;
}

/** Records a finished order (socket `order.update` event 3) and announces it. */
export function notifyOrderFinished(order: FinishedOrderNotice): void {
  finishedOrdersStore.set((orders) =>
    [order, ...orders.filter((kept) => kept.id !== order.id)].slice(0, finishedOrdersKeptMax),
  );
  pending.push(order);
  clearTimeout(debounce);
  debounce = setTimeout(() => {
    const burst = pending;
    pending = [];
    showToast({
      kind: 'success',
      text: describe(burst),
      durationMs: noticeDurationsMs.finishedOrder,
    });
  }, finishedOrderDebounceMs);
}
