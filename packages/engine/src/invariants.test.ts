// The invariant check sees a broken state: each test breaks one thing in a valid state by hand,
// as only a bug could, and the check must name it. A check that never fails would pass every
// other test of the engine.
import { describe, expect, it } from 'vitest';
import { Engine } from './engine.js';
import { BUY, btc, MARKET, oco, orderOf, SELL, stopLimit, TestExchange, usdt } from './fixtures.js';
import { detach } from './lifecycle.js';
import type { Order } from './order.js';
import { State } from './state.js';

/**
 * A valid state on the bigint core, whose state the test holds: user 1's ask and user 2's bid
 * each partly filled and resting, a second ask behind the first and a second bid level, a sell
 * stop and an OCO sell pair of user 3, and a freeze of user 1's USDT.
 */
function valid() {
  const s = new State();
  const x = TestExchange.funded(new Engine(s), [1, 2, 3]);
  x.lastPrice('30000', 3, 2);
  const ask = x.limit(1, SELL, '31000', '0.5');
  x.limit(2, BUY, '31000', '0.2');
  const bid = x.limit(2, BUY, '29000', '0.3');
  x.limit(3, SELL, '29000', '0.1');
  const behind = x.limit(1, SELL, '31000', '0.1');
  x.limit(1, BUY, '28800', '0.1');
  const stop = orderOf(x.ok(stopLimit(3, SELL, '28500', '28400', '0.1')));
  const pair = x.ok(oco(3, SELL, '32000', '28000', '27900', '0.1'));
  x.ok({
    type: 'balance.freeze',
    userId: 1,
    asset: 'USDT',
    account: 'trade',
    amount: usdt('100'),
    businessId: 'f',
    purpose: 'staking',
  });
  x.engine.assertValid();
  const order = (id: number): Order => s.orders.get(id)!;
  const limitLeg = pair.result.kind === 'orders' ? pair.result.orders[0]!.id : -1;
  return {
    x,
    s,
    ask: order(ask.id),
    behind: order(behind.id),
    bid: order(bid.id),
    stop: order(stop.id),
    limitLeg: order(limitLeg),
    trade: (userId: number, asset: string) => s.users.get(userId)!.balance(asset, 'trade'),
  };
}

type Valid = ReturnType<typeof valid>;

const breaks: [string, (v: Valid) => void, RegExp][] = [
  [
    'a negative balance',
    (v) => {
      v.trade(3, 'BTC').available = -1n;
    },
    /negative balance of 3/,
  ],
  ['a minor unit made from nothing', (v) => v.trade(1, 'USDT').available++, /USDT not conserved/],
  [
    'the outside world not the mirror of the inside',
    (v) => v.s.external.balance('BTC', 'main').available--,
    /external BTC is not the mirror/,
  ],
  [
    'frozen that no order or hold needs',
    (v) => {
      v.trade(2, 'USDT').available--;
      v.trade(2, 'USDT').frozen++;
    },
    /frozen 2 USDT trade is not/,
  ],
  [
    'a hold larger than what is frozen for it',
    (v) => {
      (v.s.holds.get('freeze:f') as { amount: bigint }).amount++;
    },
    /frozen 1 USDT trade is not/,
  ],
  [
    'an order with less frozen than its rest may pay',
    (v) => {
      // A sell stop freezes exactly its amount.
      v.stop.frozen--;
      v.trade(3, 'BTC').frozen--;
      v.trade(3, 'BTC').available++;
    },
    /underfunded/,
  ],
  [
    'an order that paid other than its value rounded up',
    (v) => {
      v.bid.dealMoney++;
    },
    /paid off its value/,
  ],
  [
    'a level whose total is not its orders’',
    (v) => {
      v.bid.level!.total++;
    },
    /level total is not the sum/,
  ],
  [
    'a filled order still on the book',
    (v) => {
      v.bid.left = 0n;
    },
    /dead order/,
  ],
  [
    'a crossed book',
    (v) => {
      // The bid's level and order moved to the ask's price: the levels stay in order.
      (v.bid.level as { price: bigint }).price = v.ask.price;
      (v.bid as { price: bigint }).price = v.ask.price;
    },
    /crossed book BTC_USDT/,
  ],
  [
    'a stop in the list of the other direction',
    (v) => {
      v.stop.direction = -v.stop.direction;
    },
    /in the wrong stop list/,
  ],
  [
    'an OCO leg whose sibling no longer points back',
    (v) => {
      v.limitLeg.sibling!.sibling = null;
    },
    /broken OCO pair/,
  ],
  [
    "a user's count of open orders off",
    (v) => {
      v.s.users.get(2)!.openCount++;
    },
    /user open order count/,
  ],
  [
    'price levels out of order',
    (v) => {
      (v.bid.level as { key: number }).key = -1;
    },
    /price levels out of order/,
  ],
  [
    'broken links within a level',
    (v) => {
      v.behind.prev = null;
    },
    /broken links at order/,
  ],
  [
    'an order at a price other than its level’s',
    (v) => {
      (v.behind as { price: bigint }).price = usdt('31000.01');
    },
    /on the wrong level/,
  ],
  [
    'an order on the side it does not trade',
    (v) => {
      (v.behind as { side: number }).side = 2;
    },
    /on the wrong side/,
  ],
  [
    'an order on the book that the engine does not know',
    (v) => {
      v.s.orders.delete(v.behind.id);
    },
    /book order \d+ not indexed/,
  ],
  [
    'a level whose last order is not its tail',
    (v) => {
      v.ask.level!.tail = v.ask;
    },
    /level tail is not its last order/,
  ],
  [
    'a level whose count is not its orders’',
    (v) => {
      v.ask.level!.count++;
    },
    /level count is wrong/,
  ],
  [
    'an order the engine knows missing from the book',
    (v) => {
      v.ask.level!.unlink(v.behind);
    },
    /open orders missing from book and stop lists/,
  ],
  [
    'a stop that the engine does not know',
    (v) => {
      v.s.orders.delete(v.stop.id);
    },
    /stop \d+ not indexed/,
  ],
  [
    'an open order whose funds are not frozen',
    (v) => {
      v.stop.fundsFrozen = false;
    },
    /without frozen funds/,
  ],
  [
    'a fee other than its numerator rounded up',
    (v) => {
      v.bid.dealFee++;
    },
    /fee off its numerator/,
  ],
  [
    'an OCO pair whose funds are split between its legs',
    (v) => {
      v.limitLeg.frozen--;
      v.limitLeg.sibling!.frozen++;
    },
    /funds split/,
  ],
  [
    'an OCO pair with less frozen than a leg may sell',
    (v) => {
      v.limitLeg.frozen--;
      v.trade(3, 'BTC').frozen--;
      v.trade(3, 'BTC').available++;
    },
    /OCO pair \d+ underfunded/,
  ],
  [
    'an OCO leg whose sibling is closed',
    (v) => {
      const stopLeg = v.limitLeg.sibling!;
      detach(stopLeg);
      v.s.orders.delete(stopLeg.id);
      v.s.users.get(3)!.removeOpen(stopLeg);
    },
    /OCO sibling of \d+ is closed/,
  ],
  [
    "a closed order in its user's list of open orders",
    (v) => {
      v.x.ok({ type: 'order.cancel', userId: 1, orderId: v.behind.id });
      v.s.users.get(1)!.addOpen(v.behind);
    },
    /user order index/,
  ],
];

describe('the invariant check', () => {
  it.each(breaks)('sees %s', (_name, breakIt, message) => {
    const v = valid();
    breakIt(v);
    expect(() => v.x.engine.assertValid()).toThrow(message);
  });

  it('passes every state the tests above break', () => {
    const v = valid();
    expect(v.bid.left).toBe(btc('0.2'));
    expect(v.ask.dealStock).toBe(btc('0.2'));
    expect(v.x.engine.openOrders(3).length).toBe(3);
    expect(() => v.x.engine.assertValid()).not.toThrow();
    expect(v.x.engine.depth(MARKET, 5).bids[0]?.[0]).toBe(usdt('29000'));
  });
});
