// The clients of the end-to-end bench (bench/e2e.ts): signing them in, to the server with the
// two demo accounts and to the durable floor, which signs in anyone; and the one request each
// sends in turn, an order that rests (or the cancel of one that does) or, to the bare route, a
// POST that the route answers without doing anything.
import { HttpSession } from '../packages/server/src/engineHost/harness/httpSession.js';
import type { Trader } from './httpLoad.js';

/** Signs in the two demo accounts, alternately, as `count` separate sessions. */
export async function signIn(url: string, count: number): Promise<Trader[]> {
  const accounts = [
    ['alice@example.com', 'Alice-demo-1', 'sell'],
    ['bob@example.com', 'Bob-demo-1', 'buy'],
  ] as const;
  const traders: Trader[] = [];
  for (let i = 0; i < count; i++) {
    const [email, password, side] = accounts[i % 2]!;
    const session = await HttpSession.signIn(url, email, password);
    traders.push({ session, side, resting: [], sequence: 0 });
  }
  return traders;
}

/** Sessions of the durable floor, which signs in anyone: half sell, half buy. */
export async function signInToFloor(url: string, count: number): Promise<Trader[]> {
  const traders: Trader[] = [];
  for (let i = 0; i < count; i++) {
    const session = new HttpSession(url);
    const answer = await session.request('POST', '/api/v2/login', {});
    if (answer.status !== 200) throw new Error(`the durable floor's sign-in: ${answer.status}`);
    traders.push({ session, side: i % 2 === 0 ? 'sell' : 'buy', resting: [], sequence: 0 });
  }
  return traders;
}

/** A sell rests far above a buy, so orders stay on the book until cancelled. */
export async function orderRequest(trader: Trader): Promise<boolean> {
  const resting = trader.resting.pop();
  if (resting !== undefined) {
    const answer = await trader.session.request('DELETE', `/api/v2/order/${resting}`);
    return answer.status === 200;
  }
  trader.sequence++;
  const price =
    trader.side === 'sell' ? 40_000 + (trader.sequence % 100) : 20_000 - (trader.sequence % 100);
  const answer = await trader.session.request('POST', '/api/v2/order', {
    pair: 'BTC_USDT',
    direction: trader.side,
    price: String(price),
    amount: '0.001',
  });
  const id = (answer.body as { order?: { id: number } }).order?.id;
  if (id !== undefined) trader.resting.push(id);
  return answer.status === 201;
}

/** The bare route's request: the same order, which the route answers doing nothing with it. */
export async function baselineRequest(trader: Trader): Promise<boolean> {
  const answer = await trader.session.request('POST', '/api/v2/order', {
    pair: 'BTC_USDT',
    direction: trader.side,
    price: '40000',
    amount: '0.001',
  });
  return answer.status === 201;
}
