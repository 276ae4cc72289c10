import type { DepthView, EngineEvent } from '@lattice/engine';
import type { EngineHost } from '../../engineHost/engineHost.js';

/** Levels per side kept for the unmerged book (HTTP serves offset + limit within it). */
export const committedLevelsMax = 200;
/** Levels per side kept for a merged view (the socket's largest subscription). */
export const mergedLevelsMax = 100;

/** Told which markets' books changed in a committed batch, after the new books were taken. */
export type DepthListener = (markets: ReadonlySet<string>) => void;

/**
 * The order books as of the last committed batch. The engine host publishes a batch after its
 * commit and before it applies the next one, so a book read while the batch is delivered is
 * exactly the committed book; reading the engine later could show commands not yet durable.
 */
export class CommittedDepth {
  private readonly books = new Map<string, DepthView>();
  /** Merged views: market → step (minor units) → book. */
  private readonly merged = new Map<string, Map<bigint, DepthView>>();
  private readonly watchers = new Map<string, number>();
  private readonly listeners = new Set<DepthListener>();
  private readonly unsubscribe: () => void;

  constructor(private readonly host: EngineHost) {
    for (const market of host.engine.markets()) this.capture(market.name);
    this.unsubscribe = host.bus.subscribe((events) => this.take(events));
  }

  /** The unmerged committed book, up to `committedLevelsMax` levels per side. */
  book(market: string): DepthView {
    return this.books.get(market) ?? { asks: [], bids: [] };
  }

  /** The committed book merged by `step` (0: exact prices), up to `mergedLevelsMax` levels. */
  mergedBook(market: string, step: bigint): DepthView {
    if (step === 0n) return this.book(market);
    const byStep = this.merged.get(market);
    const view = byStep?.get(step);
    if (view !== undefined) return view;
    // NOTE: taken now, outside a delivery: it may hold a batch not yet committed. Later views
    // are taken on delivery again, and diffs are always against what was sent.
    const fresh = this.host.engine.depth(market, mergedLevelsMax, step);
    if (this.watchers.has(`${market}|${step}`)) this.mergedOf(market).set(step, fresh);
    return fresh;
  }

  /** Keeps a merged view up to date until the returned function is called. */
  watch(market: string, step: bigint): () => void {
    if (step === 0n) return () => {};
    const key = `${market}|${step}`;
    this.watchers.set(key, (this.watchers.get(key) ?? 0) + 1);
    return () => {
      const count = (this.watchers.get(key) ?? 1) - 1;
      if (count > 0) {
        this.watchers.set(key, count);
        return;
      }
      this.watchers.delete(key);
      this.merged.get(market)?.delete(step);
    };
  }

  listen(listener: DepthListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.unsubscribe();
    this.listeners.clear();
  }

  private take(events: readonly EngineEvent[]): void {
    const touched = new Set<string>();
    for (const event of events) {
      if (event.type === 'deal') touched.add(event.market);
      else if (event.type !== 'balance') touched.add(event.order.market);
    }
    if (touched.size === 0) return;
    for (const market of touched) this.capture(market);
    for (const listener of this.listeners) listener(touched);
  }

  private capture(market: string): void {
    this.books.set(market, this.host.engine.depth(market, committedLevelsMax));
    const byStep = this.merged.get(market);
    if (byStep === undefined) return;
    for (const step of byStep.keys()) {
      byStep.set(step, this.host.engine.depth(market, mergedLevelsMax, step));
    }
  }

  private mergedOf(market: string): Map<bigint, DepthView> {
    let byStep = this.merged.get(market);
    if (byStep === undefined) {
      byStep = new Map();
      this.merged.set(market, byStep);
    }
    return byStep;
  }
}
