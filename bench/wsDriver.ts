// The server's side of bench/ws.ts that makes the changes and stamps them: the two funded
// traders, the driver that submits a probe bid and a market sell into it 20 times a second on
// the wall clock's pace, and the stamps of when the engine host's event bus published each
// probe's committed changes (where the socket's own work starts).
import type { FastifyInstance } from 'fastify';
import { fundedUserCommands } from '../packages/server/src/engineHost/hostFixtures.js';
import { market, now, type Published } from './wsBase.js';

const updatesPerSecond = 20;

/**
 * Stamps when the host publishes each probe's committed changes: the bid resting, and its deal.
 * Listens on the bus the socket's feeds listen on, so the stamp is the start of their work.
 */
export function stampPublications(app: FastifyInstance, maker: number) {
  const put = new Map<number, number>();
  const deal = new Map<number, number>();
  const centsOf = (price: bigint) => Number(price / 10_000n);
  const stop = app.engineHost.bus.subscribe((events) => {
    const at = now();
    for (const event of events) {
      if (event.type === 'order.put' && event.order.userId === maker) {
        put.set(centsOf(event.order.price), at);
      } else if (event.type === 'deal' && event.market === market) {
        deal.set(centsOf(event.price), at);
      }
    }
  });
  return {
    stop,
    table: (): Published => {
      const cents = [...put.keys()];
      return {
        cents,
        put: cents.map((c) => put.get(c)!),
        deal: cents.map((c) => deal.get(c) ?? 0),
      };
    },
  };
}

/** Two funded traders: one rests probe bids, the other sells into them. */
export async function benchUsers(app: FastifyInstance): Promise<readonly [number, number]> {
  const ids: number[] = [];
  for (const email of ['bench-maker@lattice.localhost', 'bench-taker@lattice.localhost']) {
    const row = await app.db
      .insertInto('users')
      .values({
        email,
        password_hash: '!',
        nickname: null,
        country: null,
        email_verified_at: 0,
        is_demo: 0,
        created_at: 0,
        updated_at: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const userId = Number(row.id);
    await app.engineHost.ensureUser(userId);
    // 10,000 BTC and 10^9 USDT on the trade account (a known user added again is a no-op).
    for (const cmd of fundedUserCommands(userId, 10n ** 12n, 10n ** 15n)) {
      await app.engineHost.submit(cmd);
    }
    ids.push(userId);
  }
  return [ids[0]!, ids[1]!] as const;
}

/**
 * 20 changes a second: a probe bid at the next unused price, then a market sell that trades with
 * it (a deal, and the bid leaves the book). The pace follows the wall clock: when the server's
 * event loop was busy, the changes that fell due meanwhile are submitted at once, so a slow
 * server gets the same load, not a lighter one. Returns each command's submit-to-commit time
 * and the pace achieved.
 */
export async function drive(
  app: FastifyInstance,
  maker: number,
  taker: number,
  probes: { next: number },
  seconds: number,
): Promise<{ commitMs: number[]; perSecond: number }> {
  const host = app.engineHost;
  const commitMs: number[] = [];
  const total = seconds * updatesPerSecond;
  const pending: Promise<unknown>[] = [];
  const started = now();
  const submit = (tick: number) => {
    const sent = now();
    const submitted =
      tick % 2 === 0
        ? host.submit({
            type: 'order.limit',
            userId: maker,
            market,
            side: 2,
            price: BigInt(probes.next++) * 10_000n,
            amount: 100_000n,
            timeInForce: 'GTC',
            source: 'api',
          })
        : host.submit({
            type: 'order.market',
            userId: taker,
            market,
            side: 1,
            amount: 100_000n,
            source: 'api',
          });
    pending.push(submitted.then(() => commitMs.push(now() - sent)));
  };
  await new Promise<void>((resolve) => {
    let tick = 0;
    const timer = setInterval(
      () => {
        const due = Math.min(total, Math.floor(((now() - started) * updatesPerSecond) / 1000) + 1);
        while (tick < due) submit(tick++);
        if (tick >= total) {
          clearInterval(timer);
          resolve();
        }
      },
      1000 / updatesPerSecond / 2,
    );
  });
  const perSecond = total / ((now() - started) / 1000);
  await Promise.all(pending);
  return { commitMs, perSecond };
}
