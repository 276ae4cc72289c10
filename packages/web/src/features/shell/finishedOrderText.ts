import type { TFunction } from 'i18next';
import type { FinishedOrderNotice } from './finishedOrders';

/** "Sell order BTC/USDT finished: 0.5 at 30000", or "… cancelled" when nothing traded. */
export function finishedOrderText(t: TFunction, order: FinishedOrderNotice): string {
  const market = order.market.replace('_', '/');
  const buy = order.side === 2;
  if (order.averagePrice === null) {
    return t(buy ? 'notifications.buyCancelled' : 'notifications.sellCancelled', { market });
  }
  return t(buy ? 'notifications.buyFinished' : 'notifications.sellFinished', {
    market,
    amount: order.filled,
    price: order.averagePrice,
  });
}
