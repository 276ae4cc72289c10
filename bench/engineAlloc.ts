// The engine bench's allocation measure (bench/engine.ts --alloc): the bytes the engine
// allocates per operation of the workload, by kind of operation, instead of its timed passes.
// It needs node's --expose-gc, and a young generation large enough that a collection rarely
// falls inside one operation (the usage line in bench/engine.ts).
import { freshEngine } from './engineContenders.js';
import { commandAt, LIMIT, MARKET_ORDER, SETUP_TIME, type Workload } from './engineWorkload.js';

const ALLOC_KINDS = ['limit that rests', 'limit that trades', 'market', 'cancel'];

/**
 * Bytes allocated per operation by kind: the heap's growth across each apply(), with a young
 * generation large enough (--max-semi-space-size) that a collection rarely falls inside one;
 * an operation during which the heap shrank (a collection ran) is left out. The cost of
 * reading the heap size is measured on an empty pair and subtracted.
 */
export function runAlloc(w: Workload): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('--alloc needs node --expose-gc');
  const engine = freshEngine(w);
  const { ops, amounts } = w;
  const heap = () => process.memoryUsage().heapUsed;
  let overhead = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 1000; i++) {
    const before = heap();
    overhead = Math.min(overhead, heap() - before);
  }
  const bytes = [0, 0, 0, 0];
  const count = [0, 0, 0, 0];
  let skipped = 0;
  gc();
  for (let i = 0; i < ops.length; i++) {
    const cmd = commandAt(ops, amounts, i, SETUP_TIME + 1 + i);
    const before = heap();
    const result = engine.apply(cmd);
    const grown = heap() - before - overhead;
    if (!result.ok) throw new Error(`workload command rejected: ${result.code}`);
    const kind = ops.kind[i];
    let k = 3;
    if (kind === MARKET_ORDER) k = 2;
    else if (kind === LIMIT) k = result.events.some((e) => e.type === 'deal') ? 1 : 0;
    if (grown < 0) {
      skipped++;
      continue;
    }
    bytes[k]! += grown;
    count[k]!++;
  }
  let total = 0;
  let n = 0;
  for (let k = 0; k < ALLOC_KINDS.length; k++) {
    total += bytes[k]!;
    n += count[k]!;
    const per = count[k]! === 0 ? 0 : bytes[k]! / count[k]!;
    console.log(`${ALLOC_KINDS[k]}: ${count[k]} ops, ${Math.round(per)} bytes/op`);
  }
  console.log(`all: ${Math.round(total / n)} bytes/op (${skipped} ops left out: a collection ran)`);
}
