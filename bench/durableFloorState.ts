// The durable floor's memory (bench/durableFloor.ts): the one market it takes orders in, its
// sessions, each trader's funds and resting orders, and the rows the engine host writes for an
// order put or cancelled (the same tables and statements, sqliteBatchSql.ts), built here from
// that memory for durableFloorCommit.ts to write. Nothing here matches orders: the bench's
// orders never cross.

export const PAIR = 'BTC_USDT';
export const STOCK_DECIMALS = 8;
export const MONEY_DECIMALS = 6;
/** 0.01 USDT, in USDT minor units. */
export const TICK = 10_000n;
/** 0.00001 BTC. */
export const MIN_AMOUNT = 1_000n;
export const STOCK_UNIT = 10n ** BigInt(STOCK_DECIMALS);
/** The taker fee a buy freezes beside its value: 0.2%, in parts per million. */
export const TAKER_FEE_PPM = 2_000n;

export interface Session {
  userId: number;
  csrfToken: string;
}

export interface Funds {
  available: bigint;
  frozen: bigint;
}

export interface Order {
  id: number;
  userId: number;
  side: 1 | 2;
  price: bigint;
  amount: bigint;
  frozen: bigint;
  ctime: number;
  mtime: number;
  ftime: number;
  finishReason: number | null;
}

type Row = readonly unknown[];

/** The rows one command writes: the journal's command, the order, the balance, its history. */
export interface Rows {
  journal: Row;
  order: Row;
  balance: Row;
  history: Row;
}

/** Everything the floor keeps between requests, and the counters it numbers things by. */
export interface FloorState {
  sessions: Map<string, Session>;
  funds: Map<string, Funds>;
  orders: Map<number, Order>;
  nextUserId: number;
  nextOrderId: number;
  journalSeq: number;
  eventSeq: number;
}

/** The floor at its start: no sessions, no funds touched, no orders. */
export function emptyFloorState(): FloorState {
  return {
    sessions: new Map<string, Session>(),
    funds: new Map<string, Funds>(),
    orders: new Map<number, Order>(),
    nextUserId: 1,
    nextOrderId: 1,
    journalSeq: 0,
    eventSeq: 0,
  };
}

/** A user's trade balance of an asset, made on first use. */
export function fundsOf(state: FloorState, userId: number, asset: string): Funds {
  const key = `${userId}:${asset}`;
  let f = state.funds.get(key);
  if (f === undefined) {
    // Funded as the exchange's demo accounts are: plenty of both.
    f = { available: 10n ** 18n, frozen: 0n };
    state.funds.set(key, f);
  }
  return f;
}

/** The rows the engine host writes for an order put or cancelled, and its balance change. */
export function rowsOf(
  state: FloorState,
  type: string,
  command: unknown,
  o: Order,
  frozenDelta: bigint,
  now: number,
): Rows {
  const asset = o.side === 1 ? 'BTC' : 'USDT';
  const f = fundsOf(state, o.userId, asset);
  const seq = ++state.journalSeq;
  state.eventSeq += 2;
  const eventSeq = state.eventSeq;
  const finished = o.finishReason !== null;
  return {
    journal: [seq, now, type, JSON.stringify(command), eventSeq],
    order: [
      o.id,
      o.userId,
      PAIR,
      'web',
      0,
      0,
      o.side,
      1,
      'GTC',
      o.amount.toString(),
      '0',
      o.price.toString(),
      '0',
      '0',
      finished ? '0' : o.amount.toString(),
      '0',
      '0',
      '0',
      '0',
      0,
      0,
      o.ctime,
      o.mtime,
      o.ftime,
      o.finishReason,
    ],
    balance: [o.userId, asset, 'trade', f.available.toString(), f.frozen.toString(), now],
    history: [
      eventSeq,
      now,
      o.userId,
      asset,
      'trade',
      finished ? 'order_release' : 'order_freeze',
      null,
      o.id,
      0,
      (-frozenDelta).toString(),
      frozenDelta.toString(),
      f.available.toString(),
      f.frozen.toString(),
    ],
  };
}
