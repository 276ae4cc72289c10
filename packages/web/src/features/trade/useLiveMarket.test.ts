import type { OrderJson } from '@lattice/contracts';
import { describe, expect, it } from 'vitest';
import { finishedOrderNotice } from './useLiveMarket';

const marketSell: OrderJson = {
  id: 862,
  platform: 'web',
  algorithm: 0,
  market: 'BTC_USDT',
  account: 0,
  side: 1,
  type: 2,
  amount: '0.0002',
  total: '0',
  // A market order has no price of its own.
  price: '0',
  stop_price: '0',
  limit_price: '0',
  left: '0',
  deal_stock: '0.0002',
  deal_money: '5.98701',
  deal_fee: '0.01197402',
  deal_fee_ltt: '0',
  triggered: false,
  oco_id: 0,
  ctime: 1_700_000_000,
  mtime: 1_700_000_000,
  ftime: 1_700_000_000,
  finish_reason: 0,
};

describe('the finished-order notice of an order.update event 3', () => {
  it('gives a market fill its average price, deal_money ÷ deal_stock, not its price 0', () => {
    expect(finishedOrderNotice(marketSell)).toEqual({
      id: 862,
      market: 'BTC_USDT',
      side: 1,
      filled: '0.0002',
      averagePrice: '29935.05',
      ftime: 1_700_000_000,
    });
  });

  it('gives a market buy by total what it bought', () => {
    const byTotal = {
      ...marketSell,
      side: 2,
      amount: '0',
      total: '10',
      deal_stock: '0.0003',
      deal_money: '9.99',
    };
    expect(finishedOrderNotice(byTotal)).toMatchObject({ filled: '0.0003', averagePrice: '33300' });
  });

  it('has no price for an order cancelled before it traded', () => {
    const cancelled = {
      ...marketSell,
      type: 1,
      price: '29930',
      deal_stock: '0',
      deal_money: '0',
      finish_reason: 1,
    };
    expect(finishedOrderNotice(cancelled)).toMatchObject({ filled: '0', averagePrice: null });
  });
});
