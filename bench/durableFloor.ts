// The durable floor: the least work a server can do for a signed-in trader's order over HTTP
// and still answer only once it is durable, as the engine host's write path requires
// (ARCHITECTURE.md, "The write path"). `npm run bench:e2e` runs it beside the server and the bare
// route, with the same clients.
//
// It is not the exchange. Per request it does what no design of that path can leave out, in the
// leanest form we know, and nothing else:
// - finds the session of the cookie in a map and compares the CSRF header with its token;
// - reads the body's pair, direction, price and amount, the amounts as exact minor units;
// - checks and freezes the funds of a limit order (or releases them on a cancel) in memory, with
//   no matching: the bench's orders never cross;
// - queues the rows the engine host writes for such an order, in the same tables and statements
//   (sqliteBatchSql.ts): the journal's command, the order, the balance, the balance's history;
// - writes every queued row in one transaction per turn of the event loop (group commit), on
//   the main thread: SQLite in WAL mode with synchronous=FULL, as `openDatabase` opens it, so the
//   commit returns once synced;
// - then answers each request with the order object of API.md.
// Committing in a worker thread instead, as the engine host does, was tried in a scratch copy:
// ratio 0.43 in one run, against 0.43 for this one in the run beside it; it is not kept.
// Usage: node --import tsx bench/durableFloor.ts <data dir>; prints its URL on stdout.
import { randomBytes } from 'node:crypto';
import { amountToDecimal, parseAmount } from '@lattice/contracts';
import Fastify from 'fastify';
import { migrateToLatest } from '../packages/server/src/db/migrate.js';
import { openDatabase, sqliteConnectionOf } from '../packages/server/src/db/open.js';
import { batchStatements } from '../packages/server/src/engineHost/sqliteBatchSql.js';

const PAIR = 'BTC_USDT';
const STOCK_DECIMALS = 8;
const MONEY_DECIMALS = 6;
/** 0.01 USDT, in USDT minor units. */
const TICK = 10_000n;
/** 0.00001 BTC. */
const MIN_AMOUNT = 1_000n;
const STOCK_UNIT = 10n ** BigInt(STOCK_DECIMALS);
/** The taker fee a buy freezes beside its value: 0.2%, in parts per million. */
const TAKER_FEE_PPM = 2_000n;

interface Session {
  userId: number;
  csrfToken: string;
}

interface Funds {
  available: bigint;
  frozen: bigint;
}

interface Order {
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

/** What one request queued for the next commit, and how to answer it after. */
interface Pending {
  rows: { journal: Row; order: Row; balance: Row; history: Row };
  done: () => void;
}

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

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (dataDir === undefined) throw new Error('usage: durableFloor.ts <data dir>');
  const database = openDatabase({ databaseUrl: null, dataDir });
  await migrateToLatest(database.db, database.dialect);
  const commit = committer(database);

  const sessions = new Map<string, Session>();
  const funds = new Map<string, Funds>();
  const orders = new Map<number, Order>();
  let nextUserId = 1;
  let nextOrderId = 1;
  let journalSeq = 0;
  let eventSeq = 0;
  let pending: Pending[] = [];
  let flushing = false;

  // The commit blocks the event loop, so what arrives meanwhile is read after it: the next batch.
  const flush = () => {
    flushing = false;
    const batch = pending;
    pending = [];
    commit(batch.map((entry) => entry.rows));
    for (const entry of batch) entry.done();
  };

  /** Queues a command's rows; resolves once they are committed. */
  const durable = (rows: Pending['rows']) =>
    new Promise<void>((done) => {
      pending.push({ rows, done });
      if (!flushing) {
        flushing = true;
        setImmediate(flush);
      }
    });

  const fundsOf = (userId: number, asset: string): Funds => {
    const key = `${userId}:${asset}`;
    let f = funds.get(key);
    if (f === undefined) {
      // Funded as the exchange's demo accounts are: plenty of both.
      f = { available: 10n ** 18n, frozen: 0n };
      funds.set(key, f);
    }
    return f;
  };

  /** The rows the engine host writes for an order put or cancelled, and its balance change. */
  const rowsOf = (type: string, command: unknown, o: Order, frozenDelta: bigint, now: number) => {
    const asset = o.side === 1 ? 'BTC' : 'USDT';
    const f = fundsOf(o.userId, asset);
    const seq = ++journalSeq;
    eventSeq += 2;
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
  };

  const app = Fastify({ logger: false });

  const sessionOf = (headers: Record<string, string | string[] | undefined>) => {
    const id = cookieValue(headers.cookie as string | undefined, 'sid');
    const session = id === undefined ? undefined : sessions.get(id);
    return session !== undefined && headers['x-csrf-token'] === session.csrfToken
      ? session
      : undefined;
  };

  // Anyone signs in: the floor measures the signed-in requests after it, not the sign-in.
  app.post('/api/v2/login', async (_request, reply) => {
    const id = randomBytes(24).toString('base64url');
    const session = { userId: nextUserId++, csrfToken: randomBytes(24).toString('base64url') };
    sessions.set(id, session);
    return reply
      .header('set-cookie', `sid=${id}; Path=/; HttpOnly; SameSite=Lax`)
      .header('x-csrf-token', session.csrfToken)
      .send({ status: 'ok' });
  });

  app.post('/api/v2/order', async (request, reply) => {
    const session = sessionOf(request.headers);
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
    const f = fundsOf(session.userId, side === 1 ? 'BTC' : 'USDT');
    if (f.available < need) return reply.status(422).send({ message: 'Not enough balance' });
    f.available -= need;
    f.frozen += need;
    const now = Date.now();
    const o: Order = {
      id: nextOrderId++,
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
    orders.set(o.id, o);
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
    await durable(rowsOf('order.limit', command, o, need, now));
    return reply.status(201).send({ order: presented(o) });
  });

  app.delete('/api/v2/order/:id', async (request, reply) => {
    const session = sessionOf(request.headers);
    if (session === undefined) return reply.status(401).send({ message: 'Unauthorized' });
    const id = Number((request.params as { id: string }).id);
    const o = orders.get(id);
    if (o === undefined || o.userId !== session.userId) {
      return reply.status(404).send({ message: 'Order not found' });
    }
    orders.delete(id);
    const f = fundsOf(o.userId, o.side === 1 ? 'BTC' : 'USDT');
    f.frozen -= o.frozen;
    f.available += o.frozen;
    const now = Date.now();
    o.mtime = now;
    o.ftime = now;
    o.finishReason = 1;
    const command = { type: 'order.cancel', time: now, userId: o.userId, orderId: id };
    await durable(rowsOf('order.cancel', command, o, -o.frozen, now));
    return reply.send({ order: presented(o) });
  });

  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${address}\n`);
  process.once('SIGTERM', () => {
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}

type Rows = Pending['rows'];

/** Writes a batch's rows in one transaction on this thread. */
function committer(database: ReturnType<typeof openDatabase>): (batch: Rows[]) => void {
  const sqlite = sqliteConnectionOf(database.db)!;
  // As the engine host's commit worker keeps it.
  sqlite.pragma('cache_size = -65536');
  const statements = {
    journal: sqlite.prepare(batchStatements.journal),
    order: sqlite.prepare(batchStatements.order),
    balance: sqlite.prepare(batchStatements.balance),
    history: sqlite.prepare(batchStatements.history),
  };
  return sqlite.transaction((batch: Rows[]) => {
    for (const rows of batch) {
      statements.journal.run(rows.journal);
      statements.order.run(rows.order);
      statements.balance.run(rows.balance);
      statements.history.run(rows.history);
    }
  });
}

await main();
