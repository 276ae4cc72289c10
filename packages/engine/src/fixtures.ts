// Test fixtures: a small exchange (BTC, USDT, LTT; BTC_USDT and LTT_USDT) driven through the
// public API, with every invariant checked after every command.
import { Engine } from './engine.js';
import { restoreState } from './snapshot.js';
import { State } from './state.js';
import type {
  Accepted,
  ApplyResult,
  Command,
  EngineSnapshot,
  MarketRules,
  OrderView,
  Rejection,
  Side,
  TimeInForce,
  UserId,
} from './types.js';

type Untimed<C> = C extends Command ? Omit<C, 'time'> : never;
export type CommandInput = Untimed<Command>;

/** A decimal string as minor units ('1.5', 8 -> 150000000n); test input only. */
export function units(text: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length > decimals) throw new Error(`${text} has more than ${decimals} decimals`);
  const sign = whole.startsWith('-') ? -1n : 1n;
  const digits = `${whole.replace('-', '')}${fraction.padEnd(decimals, '0')}`;
  return sign * BigInt(digits);
}

export const btc = (text: string) => units(text, 8);
export const usdt = (text: string) => units(text, 6);
export const ltt = (text: string) => units(text, 8);

export const SELL: Side = 1;
export const BUY: Side = 2;
export const MARKET = 'BTC_USDT';

/** The cores a test runs on: the engine as it starts (columnar), and the bigint core alone. */
export const CORES = [
  ['columnar', () => new Engine()],
  ['bigint', () => new Engine(new State())],
] as const;

/**
 * A snapshot restored onto each core: as the engine restores it (onto the columnar core, for a
 * state that fits it), and onto the bigint core alone.
 */
export const RESTORE_ON = {
  columnar: (snapshot: EngineSnapshot) => Engine.restore(snapshot),
  bigint: (snapshot: EngineSnapshot) => new Engine(restoreState(snapshot)),
} as const;

export class TestExchange {
  readonly engine: Engine;
  time = 1_700_000_000_000;
  /** Run the full invariant check after each command (on by default). */
  checkInvariants = true;

  constructor(engine: Engine = new Engine()) {
    this.engine = engine;
  }

  /** A fresh exchange with the standard assets and markets (on a new engine by default). */
  static standard(engine: Engine = new Engine()): TestExchange {
    const x = new TestExchange(engine);
    x.ok({ type: 'asset.add', asset: 'BTC', decimals: 8 });
    x.ok({ type: 'asset.add', asset: 'USDT', decimals: 6 });
    x.ok({ type: 'asset.add', asset: 'LTT', decimals: 8 });
    x.ok({
      type: 'market.add',
      name: MARKET,
      stock: 'BTC',
      money: 'USDT',
      tickSize: usdt('0.01'),
      lotSize: btc('0.0001'),
      minAmount: btc('0.001'),
      pricePrecision: 2,
      amountPrecision: 4,
      makerFeePpm: 1000,
      takerFeePpm: 2000,
    });
    x.ok({
      type: 'market.add',
      name: 'LTT_USDT',
      stock: 'LTT',
      money: 'USDT',
      tickSize: usdt('0.0001'),
      lotSize: ltt('1'),
      minAmount: ltt('1'),
      pricePrecision: 4,
      amountPrecision: 0,
      makerFeePpm: 1000,
      takerFeePpm: 2000,
    });
    return x;
  }

  /** A standard exchange whose users each hold 10 BTC and 1,000,000 USDT on trade. */
  static funded(engine: Engine, users: readonly UserId[]): TestExchange {
    const x = TestExchange.standard(engine);
    for (const user of users) {
      x.fund(user, 'BTC', btc('10'));
      x.fund(user, 'USDT', usdt('1000000'));
    }
    return x;
  }

  /**
   * A funded exchange (users 1 and 2) where BTC_USDT has traded at 30000, so that stop-limit and
   * OCO orders have a last price.
   */
  static traded(engine: Engine): TestExchange {
    const x = TestExchange.funded(engine, [1, 2]);
    x.lastPrice('30000', 1, 2);
    return x;
  }

  /**
   * Adds asset XYZ (8 decimals) and market XYZ_USDT: a minimum amount of 500 minor units, any
   * amount to the minor unit, prices to the cent, no fees, unless `rules` says otherwise.
   */
  addXyzMarket(rules: Pick<MarketRules, 'tickSize' | 'lotSize'> & Partial<MarketRules>): void {
    this.ok({ type: 'asset.add', asset: 'XYZ', decimals: 8 });
    this.ok({
      type: 'market.add',
      name: 'XYZ_USDT',
      stock: 'XYZ',
      money: 'USDT',
      minAmount: 500n,
      pricePrecision: 2,
      amountPrecision: 8,
      makerFeePpm: 0,
      takerFeePpm: 0,
      ...rules,
    });
  }

  /** A trade of `amount` BTC at `price` between two users: BTC_USDT's last price. */
  lastPrice(price: string, seller: UserId, buyer: UserId, amount = '0.01'): void {
    this.limit(seller, SELL, price, amount);
    this.limit(buyer, BUY, price, amount);
  }

  apply(cmd: CommandInput): ApplyResult {
    const result = this.engine.apply({ ...cmd, time: this.time++ } as Command);
    if (this.checkInvariants) this.engine.assertValid();
    return result;
  }

  ok(cmd: CommandInput): Accepted {
    const result = this.apply(cmd);
    if (!result.ok) throw new Error(`${cmd.type} rejected: ${result.code} ${result.message}`);
    return result;
  }

  rejected(cmd: CommandInput): Rejection {
    const result = this.apply(cmd);
    if (result.ok) throw new Error(`${cmd.type} was accepted`);
    return result;
  }

  /** Deposit to main and move it to the trade account. */
  fund(userId: UserId, asset: string, amount: bigint): void {
    const id = `${userId}-${asset}-${this.time}`;
    this.ok({ type: 'balance.deposit', userId, asset, amount, businessId: `dep-${id}` });
    this.ok({
      type: 'balance.transfer',
      userId,
      asset,
      amount,
      from: 'main',
      to: 'trade',
      businessId: `tr-${id}`,
    });
  }

  limit(
    userId: UserId,
    side: Side,
    price: string,
    amount: string,
    timeInForce: TimeInForce = 'GTC',
  ): OrderView {
    return orderOf(this.ok(limitOrder(userId, side, price, amount, timeInForce)));
  }

  trade(userId: UserId, asset: string): { available: bigint; frozen: bigint } {
    return this.engine.balances(userId)[asset]?.trade ?? { available: 0n, frozen: 0n };
  }
}

/** A limit order on BTC_USDT, the price in USDT and the amount in BTC as decimals. */
export function limitOrder(
  userId: UserId,
  side: Side,
  price: string,
  amount: string,
  timeInForce: TimeInForce = 'GTC',
) {
  return {
    type: 'order.limit',
    userId,
    market: MARKET,
    side,
    price: usdt(price),
    amount: btc(amount),
    timeInForce,
    source: 'web',
  } satisfies CommandInput;
}

/** A market order on BTC_USDT: by amount (BTC) or, for a buy, by total (USDT), in minor units. */
export function marketOrder(userId: UserId, side: Side, size: { amount?: bigint; total?: bigint }) {
  return {
    type: 'order.market',
    userId,
    market: MARKET,
    side,
    source: 'api',
    ...size,
  } satisfies CommandInput;
}

/** A stop-limit order on BTC_USDT, prices in USDT and the amount in BTC as decimals. */
export function stopLimit(userId: number, side: Side, stop: string, price: string, amount: string) {
  return {
    type: 'order.stopLimit',
    userId,
    market: MARKET,
    side,
    stopPrice: usdt(stop),
    price: usdt(price),
    amount: btc(amount),
    source: 'web',
  } satisfies CommandInput;
}

/** An OCO on BTC_USDT: limit price, stop price and the stop leg's limit price, as decimals. */
export function oco(
  userId: number,
  side: Side,
  price: string,
  stop: string,
  limit: string,
  amount: string,
) {
  return {
    type: 'order.oco',
    userId,
    market: MARKET,
    side,
    price: usdt(price),
    stopPrice: usdt(stop),
    limitPrice: usdt(limit),
    amount: btc(amount),
    source: 'web',
  } satisfies CommandInput;
}

export function orderOf(result: Accepted): OrderView {
  if (result.result.kind !== 'order') throw new Error(`no order in ${result.result.kind}`);
  return result.result.order;
}

export function ordersOf(result: Accepted): OrderView[] {
  if (result.result.kind !== 'orders') throw new Error(`no orders in ${result.result.kind}`);
  return result.result.orders;
}

/** The deals of a result, in order. */
export function dealsOf(result: Accepted) {
  return result.events.flatMap((e) => (e.type === 'deal' ? [e] : []));
}
