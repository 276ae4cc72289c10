// Books hundreds of levels deep on both cores: levels made and dropped at the best, at the far
// end and between, then swept, with every result, event and state hash compared after each
// command (enginePairTestKit). The generated workloads of the differential test keep within
// twenty levels of a price; these reach the side's moves towards either end (BookSide).
import { describe, expect, it } from 'vitest';
import { Random } from './differentialFitting.js';
import { bid, type Input, setUp } from './enginePairTestKit.js';

const MID = 100_000n;
/** How many ticks either side of the middle orders rest at. */
const SPREAD = 600;

// Some seconds: both engines' state hashes after every command.
describe('a book hundreds of levels deep', { timeout: 60_000 }, () => {
  it('gives the same results on both cores while levels come and go at either end', () => {
    const pair = setUp();
    const r = new Random(7);
    const random = (n: number) => r.int(0, n - 1);
    /** Orders placed to rest, with their users: some have traded away since. */
    const open: [number, number][] = [];
    let deepest = 0;
    for (let step = 0; step < 3000; step++) {
      const roll = random(100);
      const userId = 1 + random(2);
      const side = 1 + random(2);
      let cmd: Input;
      if (roll < 70) {
        // A resting order at 1 to SPREAD ticks from the middle, on its own side.
        const away = BigInt(1 + random(SPREAD));
        cmd = { ...bid(userId, BigInt(1 + random(5)), side === 1 ? MID + away : MID - away), side };
      } else if (roll < 75) {
        // One that crosses into the other side, up to 40 ticks past the middle.
        const past = BigInt(random(40));
        cmd = {
          ...bid(userId, BigInt(1 + random(30)), side === 1 ? MID - past : MID + past),
          side,
        };
      } else if (roll < 95 && open.length > 0) {
        const [[orderId, owner]] = open.splice(random(open.length), 1) as [[number, number]];
        cmd = { type: 'order.cancel', userId: owner, orderId };
      } else {
        const market = { type: 'order.market', market: 'BTC_USDT', source: 'api' };
        cmd = { ...market, userId, side, amount: BigInt(1 + random(20)) };
      }
      const result = pair.apply(cmd);
      if (result.ok && result.result.kind === 'order' && result.result.order.left > 0n) {
        if (cmd.type === 'order.limit') open.push([result.result.order.id, userId]);
      }
      if (step % 100 === 0) {
        // Each core's own checks: its sides' levels in order, totals, frozen funds.
        pair.engine.assertValid();
        pair.bigint.assertValid();
        const depth = pair.engine.depth('BTC_USDT', 10_000);
        deepest = Math.max(deepest, depth.asks.length, depth.bids.length);
      }
    }
    expect(deepest).toBeGreaterThan(300);
    expect(pair.engine.coreName).toBe('columnar');
    pair.engine.assertValid();
    pair.restart();
  });
});
