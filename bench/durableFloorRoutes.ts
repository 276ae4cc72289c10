// The durable floor's HTTP routes (bench/durableFloor.ts), each the least its request needs:
// sign-in, which signs in anyone; an order put, which finds the session of the cookie and
// compares the CSRF header with its token, reads the body's pair, direction, price and amount
// (the amounts as exact minor units), checks and freezes the funds, and waits for its rows to be
// durable; and a cancel, which releases them. Each answers with the order object of API.md.
import { randomBytes } from 'node:crypto';
import { amountToDecimal, parseAmount } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import {
  type FloorState,
  fundsOf,
  MIN_AMOUNT,
  MONEY_DECIMALS,
  type Order,
  PAIR,
  type Rows,
  rowsOf,
  type Session,
  STOCK_DECIMALS,
  STOCK_UNIT,
  TAKER_FEE_PPM,
  TICK,
} from './durableFloorState.js';

/** Queues a command's rows; resolves once they are committed (durableFloorCommit.ts). */
type Durable = (rows: Rows) => Promise<void>;

/** A decimal string's exact value in minor units, or null when it is not one (money.ts). */
function minorUnits(text: unknown, decimals: number): bigint | null {
  if (typeof text !== 'string') return null;
  const parsed = parseAmount(text, decimals);
  return parsed.ok ? parsed.value : null;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  const at = header.indexOf(`${name}=`);
  if (at < 0) return undefined;
  const end = header.indexOf(';', at);
  return header.slice(at + name.length + 1, end < 0 ? undefined : end);
}

/** The order object of API.md. */
function presented(o: Order): Record<string, unknown> {
  return {
    id: o.id,
    platform: 'web',
    algorithm: 0,
    market: PAIR,
    account: 0,
    side: o.side,
    type: 1,
    amount: amountToDecimal(o.amount, STOCK_DECIMALS),
    total: '0',
    price: amountToDecimal(o.price, MONEY_DECIMALS),
    stop_price: '0',
    limit_price: '0',
    left: amountToDecimal(o.finishReason === null ? o.amount : 0n, STOCK_DECIMALS),
    deal_stock: '0',
    deal_money: '0',
    deal_fee: '0',
    triggered: false,
    oco_id: 0,
    ctime: o.ctime / 1000,
    mtime: o.mtime / 1000,
    ftime: o.ftime / 1000,
    ...(o.finishReason === null ? {} : { finish_reason: o.finishReason }),
  };
}

/** The session of the request's cookie, when its CSRF header matches the session's token. */
function sessionOf(
  state: FloorState,
  headers: Record<string, string | string[] | undefined>,
): Session | undefined {
  const id = cookieValue(headers.cookie as string | undefined, 'sid');
  const session = id === undefined ? undefined : state.sessions.get(id);
  return session !== undefined && headers['x-csrf-token'] === session.csrfToken
    ? session
    : undefined;
}

/** POST /api/v2/login. */
export function registerSignIn(app: FastifyInstance, state: FloorState): void {
  // Anyone signs in: the floor measures the signed-in requests after it, not the sign-in.
  app.post('/api/v2/login', async (_request, reply) => {
    const id = randomBytes(24).toString('base64url');
    const session = {
      userId: state.nextUserId++,
      csrfToken: randomBytes(24).toString('base64url'),
    };
    state.sessions.set(id, session);
    return reply
      .header('set-cookie', `sid=${id}; Path=/; HttpOnly; SameSite=Lax`)
      .header('x-csrf-token', session.csrfToken)
      .send({ status: 'ok' });
  });
}

/** POST /api/v2/order: a limit order's funds frozen, answered once its rows are durable. */
export function registerPlaceOrder(
  app: FastifyInstance,
  state: FloorState,
  durable: Durable,
): void {
  app.post('/api/v2/order', async (request, reply) => {
    const session = sessionOf(state, request.headers);
    if (session === undefined) return reply.status(401).send({ message: 'Unauthorized' });
    const body = (request.body ?? {}) as Record<string, unknown>;
    const side = body.direction === 'sell' ? 1 : body.direction === 'buy' ? 2 : 0;
    const price = minorUnits(body.price, MONEY_DECIMALS);
    const amount = minorUnits(body.amount, STOCK_DECIMALS);
    if (
      body.pair !== PAIR ||
      side === 0 ||
      price === null ||
      price === 0n ||
      price % TICK !== 0n ||
      amount === null ||
      amount < MIN_AMOUNT
    ) {
      return reply.status(422).send({ message: 'Invalid order' });
    }
    const value = (price * amount + STOCK_UNIT - 1n) / STOCK_UNIT;
    const need = side === 1 ? amount : value + (value * TAKER_FEE_PPM + 999_999n) / 1_000_000n;
    const f = fundsOf(state, session.userId, side === 1 ? 'BTC' : 'USDT');
    if (f.available < need) return reply.status(422).send({ message: 'Not enough balance' });
    f.available -= need;
    f.frozen += need;
    const now = Date.now();
    const o: Order = {
      id: state.nextOrderId++,
      userId: session.userId,
      side,
      price,
      amount,
      frozen: need,
      ctime: now,
      mtime: now,
      ftime: 0,
      finishReason: null,
    };
    state.orders.set(o.id, o);
    const command = {
      type: 'order.limit',
      time: now,
      userId: o.userId,
      market: PAIR,
      side,
      price: price.toString(),
      amount: amount.toString(),
      timeInForce: 'GTC',
      source: 'web',
    };
    await durable(rowsOf(state, 'order.limit', command, o, need, now));
    return reply.status(201).send({ order: presented(o) });
  });
}

/** DELETE /api/v2/order/:id: the order's funds released, answered once its rows are durable. */
export function registerCancelOrder(
  app: FastifyInstance,
  state: FloorState,
  durable: Durable,
): void {
  app.delete('/api/v2/order/:id', async (request, reply) => {
    const session = sessionOf(state, request.headers);
    if (session === undefined) return reply.status(401).send({ message: 'Unauthorized' });
    const id = Number((request.params as { id: string }).id);
    const o = state.orders.get(id);
    if (o === undefined || o.userId !== session.userId) {
      return reply.status(404).send({ message: 'Order not found' });
    }
    state.orders.delete(id);
    const f = fundsOf(state, o.userId, o.side === 1 ? 'BTC' : 'USDT');
    f.frozen -= o.frozen;
    f.available += o.frozen;
    const now = Date.now();
    o.mtime = now;
    o.ftime = now;
    o.finishReason = 1;
    const command = { type: 'order.cancel', time: now, userId: o.userId, orderId: id };
    await durable(rowsOf(state, 'order.cancel', command, o, -o.frozen, now));
    return reply.send({ order: presented(o) });
  });
}
