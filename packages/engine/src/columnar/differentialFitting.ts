// For the differential test of the two cores: seeded workloads that fit the columnar core, so
// that a test can check the engine never hands over on them and reaches the paths of stops,
// OCO pairs, self-trade prevention and fees in LTT. A small seeded generator (not fast-check)
// keeps each workload the same from run to run; commands are drawn against the harness's state.
import type { Harness } from './differentialHarness.js';
import {
  FUNDS,
  type Plain,
  SET_UP_SHAPES,
  SHAPES,
  type Shape,
  USERS,
} from './differentialShapes.js';

/** mulberry32: a small seeded generator. */
export class Random {
  private s: number;

  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }
}

const FITTING_TIF = ['GTC', 'GTC', 'GTC', 'GTC', 'IOC', 'IOC', 'FOK', 'POST_ONLY', 'POST_ONLY'];

/** An order command's self-trade prevention: mostly the default, given or not. */
function fittingSelfTrade(r: Random): Plain {
  const mode = r.pick(['absent', 'absent', 'cancelNewest', 'cancelOldest', 'cancelBoth']);
  return mode === 'absent' ? {} : { selfTradePrevention: mode };
}

/** A stop-limit order or an OCO pair around the market's last price, mostly valid. */
function conditionalCommand(
  h: Harness,
  r: Random,
  m: Shape,
  userId: number,
  side: number,
  amount: bigint,
): Plain {
  const last = h.a.lastPrice(m.spec.name);
  const base = last > 0n ? last : m.center;
  const away = (k: number) => BigInt(k) * m.step;
  const order = { userId, market: m.spec.name, side, amount, source: r.pick(['web', 'api']) };
  if (r.next() < 0.6) {
    const stopPrice = base + away(r.int(-6, 6));
    const price = stopPrice + away(r.int(-3, 3));
    return { type: 'order.stopLimit', ...order, stopPrice, price: price > 0n ? price : stopPrice };
  }
  // A sell: price above the last price, stop below it, limit at or below the stop; a buy the
  // other way round.
  const dir = side === 1 ? 1n : -1n;
  const price = base + dir * away(r.int(1, 6));
  const stopPrice = base - dir * away(r.int(1, 6));
  const limitPrice = stopPrice - dir * away(r.int(0, 3));
  return { type: 'order.oco', ...order, price, stopPrice, limitPrice };
}

/**
 * Limit (every time in force), market (amount, total), stop-limit and OCO orders, cancels,
 * transfers and fees in LTT turned on and off, modest sizes.
 */
export function fittingCommand(
  h: Harness,
  r: Random,
  shapes: readonly Shape[] = SET_UP_SHAPES,
): Plain {
  const m = r.pick(shapes);
  const userId = r.pick(USERS);
  const side = r.int(1, 2);
  const lots = BigInt(r.int(1, Math.ceil(m.maxLots / 4)));
  const roll = r.next();
  if (roll < 0.1) {
    const conditional = conditionalCommand(h, r, m, userId, side, lots * m.spec.lotSize);
    return { ...conditional, ...fittingSelfTrade(r) };
  }
  if (roll < 0.11) return { type: 'user.setCustomFee', userId, enabled: r.next() < 0.7 };
  if (roll < 0.5) {
    return {
      type: 'order.limit',
      userId,
      market: m.spec.name,
      side,
      price: m.center + BigInt(r.int(-8, 8)) * m.step,
      amount: lots * m.spec.lotSize,
      timeInForce: r.pick(FITTING_TIF),
      source: r.pick(['web', 'api']),
      ...fittingSelfTrade(r),
    };
  }
  if (roll < 0.62) {
    const byTotal = side === 2 && r.next() < 0.5;
    return {
      type: 'order.market',
      userId,
      market: m.spec.name,
      side,
      ...(byTotal
        ? { total: BigInt(r.int(1, Number(m.maxTotal / 4n))) }
        : { amount: lots * m.spec.lotSize }),
      source: 'api',
      ...fittingSelfTrade(r),
    };
  }
  if (roll < 0.82) return h.cancelOf(r.int(0, 1000), r.next() < 0.9, r.next() < 0.8);
  if (roll < 0.86) {
    return r.next() < 0.5
      ? { type: 'order.cancelAll', userId }
      : { type: 'order.cancelAll', userId, market: m.spec.name };
  }
  const [asset, funded] = r.pick(FUNDS);
  const toMain = r.next() < 0.5;
  return {
    type: 'balance.transfer',
    userId,
    asset,
    amount: BigInt(r.int(1, Number(funded / 100n))),
    from: toMain ? 'trade' : 'main',
    to: toMain ? 'main' : 'trade',
    businessId: `t${h.count}`,
  };
}

/**
 * How many resting orders of its own user a limit or market order cancelled by its self-trade
 * prevention (cancelOldest, cancelBoth), from the model's result as JSON text.
 */
export function ownOrdersCancelled(cmd: Plain, outcome: string): number {
  const mode = cmd.selfTradePrevention;
  if (mode !== 'cancelOldest' && mode !== 'cancelBoth') return 0;
  if (cmd.type !== 'order.limit' && cmd.type !== 'order.market') return 0;
  const result = JSON.parse(outcome) as {
    ok: boolean;
    events?: { type: string; order?: { id: number; userId: number; finish_reason: number } }[];
    result?: { order?: { id: number } };
  };
  if (!result.ok) return 0;
  const own = result.result?.order?.id;
  return result.events!.filter(
    (e) =>
      e.type === 'order.finish' &&
      e.order!.finish_reason === 1 &&
      e.order!.userId === cmd.userId &&
      e.order!.id !== own,
  ).length;
}

/** The LTT_USDT market, with a last price, so that fees can be taken in LTT. */
export function pricedLtt(h: Harness): Shape {
  const ltt = SHAPES[3]!;
  h.ok(ltt.spec);
  const order = {
    type: 'order.limit',
    market: ltt.spec.name,
    amount: 5n * ltt.spec.lotSize,
    price: ltt.center,
    timeInForce: 'GTC',
    source: 'web',
  };
  h.ok({ ...order, userId: 3, side: 1 });
  h.ok({ ...order, userId: 4, side: 2 });
  return ltt;
}

/** `n` fitting commands, each sent to every engine of the harness. */
export function runFitting(h: Harness, r: Random, n: number, shapes?: readonly Shape[]): void {
  for (let i = 0; i < n; i++) h.send({ ...fittingCommand(h, r, shapes), time: h.tick() });
}
