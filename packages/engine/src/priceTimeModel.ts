// A reference model of one market's order book and of what its deals move, written from the
// rules in docs/decisions/engine.md ("Orders", "Fees and rounding") and self-trade-prevention.md
// and from no code of either core (only bigmath's integer helpers): sorted arrays, one order at
// a time, each user's two balances as one number each (what is frozen and what is available
// together), fees in money only. priceTime.test.ts drives it beside the engine with the same
// commands and compares who traded with whom, at what price, how much and for what fees, which
// orders ended and why, which stops fired and in what order, the book and every user's balances
// after each command. The differential test compares the two cores with each other; this
// compares both with the rules, so a mistake they share (a level in the wrong place, a stop
// fired out of turn, an OCO leg left open) does not pass unseen.
import { ceilDiv, minBig } from './bigmath.js';
import type { SelfTradePrevention, Side } from './types.js';

export interface ModelOrder {
  id: number;
  user: number;
  side: Side;
  /** The limit price; for a waiting stop, the price it becomes a limit order at. 0 for a market order. */
  price: bigint;
  left: bigint;
  /** A market buy by total: the money it may spend, fees included; 0 otherwise. */
  total: bigint;
  selfTrade: SelfTradePrevention;
  /** A waiting stop's stop price and direction (1 fires at or above it, −1 at or below). */
  stop: bigint;
  direction: 0 | 1 | -1;
  /** The other leg of an OCO while both are open. */
  sibling: ModelOrder | null;
  /** A buy's sums over its fills so far: amount × price, and that × each fill's fee rate. */
  dealNum: bigint;
  feeNum: bigint;
  /** What the buy has paid so far, for the coin and in fees, in money minor units. */
  paidCoin: bigint;
  paidFee: bigint;
}

/** A market's fee rates (parts per million) and its stock's minor units in one whole unit. */
export interface ModelRates {
  maker: bigint;
  taker: bigint;
  stockScale: bigint;
  /** The stock's lot, in minor units. */
  lot: bigint;
}

/** A user's stock and money, available and frozen together. */
export interface ModelBalance {
  stock: bigint;
  money: bigint;
}

/** What one command did, in the engine's terms, or the code it was refused with. */
export interface ModelOutcome {
  rejected: string | null;
  /** [maker id, taker id, price, amount, maker fee, taker fee], in the order they happened. */
  deals: [number, number, bigint, bigint, bigint, bigint][];
  /** [order id, finish reason], in any order (compared sorted). */
  finishes: [number, number][];
  /** Ids of the stops that fired, in the order they fired. */
  triggered: number[];
}

type StopReason = 'filled' | 'price' | 'book' | 'self';

export class PriceTimeModel {
  /**
   * Best first: asks by price ascending, bids descending; then by arrival (an order joins behind
   * every order at its price).
   */
  readonly asks: ModelOrder[] = [];
  readonly bids: ModelOrder[] = [];
  /** Open orders, waiting stops included, by id. */
  readonly open = new Map<number, ModelOrder>();
  last = 0n;
  private runLo = -1n;
  private runHi = -1n;
  private out: ModelOutcome = emptyOutcome(null);

  constructor(
    public nextId: number,
    private readonly rates: ModelRates,
    /** Every user's balances as the model starts: the engine's after the market's setup. */
    readonly balances: Map<number, ModelBalance>,
  ) {}

  limit(
    user: number,
    side: Side,
    price: bigint,
    amount: bigint,
    tif: string,
    stp: SelfTradePrevention,
  ): ModelOutcome {
    const opposite = this.opposite(side);
    const best = opposite[0];
    if (tif === 'POST_ONLY' && best !== undefined && crosses(side, price, best.price)) {
      return emptyOutcome('post_only_would_take');
    }
    if (tif === 'FOK' && amount > this.fillableAmount(user, side, price, stp)) {
      return emptyOutcome('fok_not_filled');
    }
    this.begin();
    const t = this.newOrder(user, side, price, amount, stp);
    this.runLimit(t, tif === 'IOC' || tif === 'FOK');
    return this.end();
  }

  market(user: number, side: Side, amount: bigint, stp: SelfTradePrevention): ModelOutcome {
    if (this.opposite(side).length === 0) return emptyOutcome('not_enough_liquidity');
    this.begin();
    const t = this.newOrder(user, side, 0n, amount, stp);
    const why = this.take(t);
    this.finish(t, why === 'filled' ? 0 : why === 'self' ? 1 : 3);
    return this.end();
  }

  /** A market buy of what `total` pays for, its fees included. */
  marketByTotal(user: number, total: bigint, stp: SelfTradePrevention): ModelOutcome {
    const best = this.asks[0];
    if (best === undefined) return emptyOutcome('not_enough_liquidity');
    if (this.affordable(0n, 0n, total, best.price) === 0n) return emptyOutcome('amount_too_small');
    this.begin();
    const o = this.newOrder(user, 2, 0n, 0n, stp);
    o.total = total;
    const why = this.take(o);
    this.finish(o, why === 'filled' ? 0 : why === 'self' ? 1 : 3);
    return this.end();
  }

  stopLimit(
    user: number,
    side: Side,
    stop: bigint,
    price: bigint,
    amount: bigint,
    stp: SelfTradePrevention,
  ): ModelOutcome {
    if (this.last === 0n || stop === this.last) return emptyOutcome('invalid_stop_price');
    this.begin();
    const o = this.newOrder(user, side, price, amount, stp);
    this.park(o, stop, stop > this.last ? 1 : -1);
    return this.end();
  }

  /** A limit leg at `price` and a stop leg firing at `stop` into a limit at `limitPrice`. */
  oco(
    user: number,
    side: Side,
    price: bigint,
    stop: bigint,
    limitPrice: bigint,
    amount: bigint,
    stp: SelfTradePrevention,
  ): ModelOutcome {
    const last = this.last;
    const valid = side === 1 ? stop < last && last < price : price < last && last < stop;
    if (last === 0n || !valid) return emptyOutcome('invalid_oco_prices');
    this.begin();
    const limitLeg = this.newOrder(user, side, price, amount, stp);
    const stopLeg = this.newOrder(user, side, limitPrice, amount, stp);
    limitLeg.sibling = stopLeg;
    stopLeg.sibling = limitLeg;
    this.park(stopLeg, stop, side === 1 ? -1 : 1);
    this.runLimit(limitLeg, false);
    return this.end();
  }

  cancel(user: number, id: number): ModelOutcome {
    const o = this.open.get(id);
    if (o === undefined || o.user !== user) return emptyOutcome('order_not_found');
    this.begin();
    this.finish(o, 1);
    return this.end();
  }

  /** Every open order of the user, oldest first (a leg of an OCO cancelled with its pair). */
  cancelAll(user: number): ModelOutcome {
    this.begin();
    const mine = [...this.open.values()].filter((o) => o.user === user).sort((a, b) => a.id - b.id);
    for (const o of mine) if (this.open.has(o.id)) this.finish(o, 1);
    return this.end();
  }

  /** Price levels best first, as the engine's depth lists them. */
  depth(side: Side): [bigint, bigint][] {
    const levels: [bigint, bigint][] = [];
    for (const o of side === 1 ? this.asks : this.bids) {
      const top = levels[levels.length - 1];
      if (top !== undefined && top[0] === o.price) top[1] += o.left;
      else levels.push([o.price, o.left]);
    }
    return levels;
  }

  private opposite(side: Side): ModelOrder[] {
    return side === 1 ? this.bids : this.asks;
  }

  private begin(): void {
    this.out = emptyOutcome(null);
    this.runLo = -1n;
    this.runHi = -1n;
  }

  /** Fire what the command's trades crossed, then hand back what happened. */
  private end(): ModelOutcome {
    for (let o = this.nextToFire(); o !== undefined; o = this.nextToFire()) {
      o.direction = 0;
      this.out.triggered.push(o.id);
      this.endPair(o);
      this.runLimit(o, false);
    }
    return this.out;
  }

  /** Rising stops first, the lowest stop, then the oldest; then falling, the highest, oldest. */
  private nextToFire(): ModelOrder | undefined {
    const waiting = [...this.open.values()].filter((o) => o.direction !== 0);
    const up = waiting.filter((o) => o.direction === 1 && this.runHi >= 0n && this.runHi >= o.stop);
    up.sort((a, b) => (a.stop !== b.stop ? (a.stop < b.stop ? -1 : 1) : a.id - b.id));
    if (up.length > 0) return up[0];
    const down = waiting.filter(
      (o) => o.direction === -1 && this.runLo >= 0n && this.runLo <= o.stop,
    );
    down.sort((a, b) => (a.stop !== b.stop ? (a.stop > b.stop ? -1 : 1) : a.id - b.id));
    return down[0];
  }

  private newOrder(
    user: number,
    side: Side,
    price: bigint,
    left: bigint,
    selfTrade: SelfTradePrevention,
  ): ModelOrder {
    const o: ModelOrder = {
      id: this.nextId++,
      user,
      side,
      price,
      left,
      total: 0n,
      selfTrade,
      stop: 0n,
      direction: 0,
      sibling: null,
      dealNum: 0n,
      feeNum: 0n,
      paidCoin: 0n,
      paidFee: 0n,
    };
    this.open.set(o.id, o);
    return o;
  }

  private park(o: ModelOrder, stop: bigint, direction: 1 | -1): void {
    o.stop = stop;
    o.direction = direction;
  }

  /** A limit order as a taker: what it cannot take rests, unless it is immediate or stopped. */
  private runLimit(t: ModelOrder, immediate: boolean): void {
    const why = this.take(t);
    if (why === 'filled') this.finish(t, 0);
    else if (why === 'self' || immediate) this.finish(t, 1);
    else this.rest(t);
  }

  /** Trade the taker against the opposite side in price-time order until something stops it. */
  private take(t: ModelOrder): StopReason {
    const opposite = this.opposite(t.side);
    for (;;) {
      // Filled: all its amount, or for a buy by total, all its total.
      if (t.total > 0n ? t.paidCoin + t.paidFee === t.total : t.left === 0n) return 'filled';
      const m = opposite[0];
      if (m === undefined) return 'book';
      if (t.price !== 0n && !crosses(t.side, t.price, m.price)) return 'price';
      // A buy by total ends when what is left of it buys nothing at the next price.
      const most = t.total > 0n ? this.affordable(t.dealNum, t.feeNum, t.total, m.price) : t.left;
      if (most === 0n) return 'filled';
      if (m.user === t.user) {
        if (t.selfTrade === 'cancelNewest') return 'self';
        this.finish(m, 1);
        if (t.selfTrade === 'cancelBoth') return 'self';
        continue;
      }
      const amount = minBig(m.left, most);
      const [makerFee, takerFee] = this.settle(m, t, m.price, amount);
      this.out.deals.push([m.id, t.id, m.price, amount, makerFee, takerFee]);
      this.last = m.price;
      if (this.runLo < 0n || m.price < this.runLo) this.runLo = m.price;
      if (m.price > this.runHi) this.runHi = m.price;
      m.left -= amount;
      t.left -= amount;
      // An OCO leg that trades, even in part, ends its pair.
      this.endPair(m);
      this.endPair(t);
      if (m.left === 0n) this.finish(m, 0);
    }
  }

  /**
   * Move one fill's stock and money, and return the maker's and the taker's fee. The buyer pays
   * per order, so that after each fill it has paid ceil(Σ value) for the coin and
   * ceil(Σ value × rate) in fees; the seller gets each fill's value rounded down, less its fee
   * rounded up, never below nothing.
   */
  private settle(
    maker: ModelOrder,
    taker: ModelOrder,
    price: bigint,
    amount: bigint,
  ): [bigint, bigint] {
    const { stockScale, maker: makerRate, taker: takerRate } = this.rates;
    const feeScale = stockScale * 1_000_000n;
    const rateOf = (o: ModelOrder) => (o === maker ? makerRate : takerRate);
    const [buyer, seller] = maker.side === 2 ? [maker, taker] : [taker, maker];
    const num = amount * price;
    buyer.dealNum += num;
    buyer.feeNum += num * rateOf(buyer);
    const coin = ceilDiv(buyer.dealNum, stockScale) - buyer.paidCoin;
    const buyerFee = ceilDiv(buyer.feeNum, feeScale) - buyer.paidFee;
    buyer.paidCoin += coin;
    buyer.paidFee += buyerFee;
    const value = num / stockScale;
    const sellerFee = minBig(ceilDiv(num * rateOf(seller), feeScale), value);
    this.balanceOf(buyer.user).stock += amount;
    this.balanceOf(buyer.user).money -= coin + buyerFee;
    this.balanceOf(seller.user).stock -= amount;
    this.balanceOf(seller.user).money += value - sellerFee;
    return maker === buyer ? [buyerFee, sellerFee] : [sellerFee, buyerFee];
  }

  /**
   * The most a buy by total can still take at `price`, in whole lots: the most after which what
   * its order has paid, for the coin and in fees at the taker's rate, each rounded up over the
   * order, is still within its total. `dealNum` and `feeNum` are its sums so far (ModelOrder).
   */
  private affordable(dealNum: bigint, feeNum: bigint, total: bigint, price: bigint): bigint {
    const { stockScale, taker, lot } = this.rates;
    const fits = (lots: bigint) =>
      ceilDiv(dealNum + lots * lot * price, stockScale) +
        ceilDiv(feeNum + lots * lot * price * taker, stockScale * 1_000_000n) <=
      total;
    let [lo, hi] = [0n, (total * stockScale) / (price * lot) + 1n];
    while (hi - lo > 1n) {
      const mid = (lo + hi) / 2n;
      if (fits(mid)) lo = mid;
      else hi = mid;
    }
    return lo * lot;
  }

  private balanceOf(user: number): ModelBalance {
    const balance = this.balances.get(user);
    if (balance === undefined) throw new Error(`user ${user} has no balances in the model`);
    return balance;
  }

  /**
   * What a fill-or-kill order can fill within its price: the other users' orders in priority
   * order, up to its user's first own order unless its mode cancels those (cancelOldest).
   */
  fillableAmount(user: number, side: Side, price: bigint, stp: SelfTradePrevention): bigint {
    let sum = 0n;
    for (const m of this.opposite(side)) {
      if (!crosses(side, price, m.price)) break;
      if (m.user !== user) sum += m.left;
      else if (stp !== 'cancelOldest') break;
    }
    return sum;
  }

  private rest(o: ModelOrder): void {
    const side = o.side === 1 ? this.asks : this.bids;
    let at = side.findIndex((r) => (o.side === 1 ? r.price > o.price : r.price < o.price));
    if (at < 0) at = side.length;
    side.splice(at, 0, o);
  }

  /** Close an order, and the other leg of its OCO with reason 2. */
  private finish(o: ModelOrder, reason: number): void {
    if (!this.open.delete(o.id)) return;
    const side = o.side === 1 ? this.asks : this.bids;
    const at = side.indexOf(o);
    if (at >= 0) side.splice(at, 1);
    o.direction = 0;
    this.out.finishes.push([o.id, reason]);
    this.endPair(o);
  }

  /** Cancel the other leg of an order's OCO (reason 2), leaving the order itself open. */
  private endPair(o: ModelOrder): void {
    const sibling = o.sibling;
    if (sibling === null) return;
    o.sibling = null;
    sibling.sibling = null;
    this.finish(sibling, 2);
  }
}

/** Whether a taker on `side` at `price` reaches a resting order at `resting`. */
function crosses(side: Side, price: bigint, resting: bigint): boolean {
  return side === 2 ? resting <= price : resting >= price;
}

function emptyOutcome(rejected: string | null): ModelOutcome {
  return { rejected, deals: [], finishes: [], triggered: [] };
}
