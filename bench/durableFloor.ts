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
//
// This file opens the database and listens; the parts are beside it: durableFloorState.ts (the
// market, the sessions, funds and orders in memory, and the rows of each command),
// durableFloorRoutes.ts (sign-in, place and cancel) and durableFloorCommit.ts (group commit).
import Fastify from 'fastify';
import { migrateToLatest } from '../packages/server/src/db/migrate.js';
import { openDatabase } from '../packages/server/src/db/open.js';
import { committer, groupCommit } from './durableFloorCommit.js';
import { registerCancelOrder, registerPlaceOrder, registerSignIn } from './durableFloorRoutes.js';
import { emptyFloorState } from './durableFloorState.js';

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (dataDir === undefined) throw new Error('usage: durableFloor.ts <data dir>');
  const database = openDatabase({ databaseUrl: null, dataDir });
  await migrateToLatest(database.db, database.dialect);
  const durable = groupCommit(committer(database));
  const state = emptyFloorState();

  const app = Fastify({ logger: false });
  registerSignIn(app, state);
  registerPlaceOrder(app, state, durable);
  registerCancelOrder(app, state, durable);

  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${address}\n`);
  process.once('SIGTERM', () => {
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}

await main();
