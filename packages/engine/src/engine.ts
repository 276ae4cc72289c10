// The exchange engine: a deterministic state machine, apply(command) -> events.
import type {
  ApplyResult,
  AssetTotal,
  AssetView,
  Command,
  DepthView,
  EngineSnapshot,
  MarketView,
  OrderView,
  UserBalances,
  UserId,
} from './types.js';

/** Thrown only when the engine's own bookkeeping is broken; the host must halt. */
export class InvariantViolation extends Error {
  override name = 'InvariantViolation';
}

function unavailable(): never {
  throw new Error('engine implementation not yet available');
}

/** Mutable state inside for speed; conceptually apply(state, cmd) -> events. */
export class Engine {
  lastEventSeq = 0;
  nextOrderId = 1;
  nextDealId = 1;

  apply(_cmd: Command): ApplyResult {
    return unavailable();
  }
  snapshot(): EngineSnapshot {
    return unavailable();
  }
  static restore(_s: EngineSnapshot): Engine {
    return unavailable();
  }
  stateHash(): string {
    return unavailable();
  }
  balances(_userId: UserId): UserBalances {
    return unavailable();
  }
  order(_orderId: number): OrderView | undefined {
    return unavailable();
  }
  openOrders(_userId: UserId, _market?: string): OrderView[] {
    return unavailable();
  }
  depth(_market: string, _limit: number, _mergeStep?: bigint): DepthView {
    return unavailable();
  }
  lastPrice(_market: string): bigint {
    return unavailable();
  }
  markets(): MarketView[] {
    return unavailable();
  }
  assets(): AssetView[] {
    return unavailable();
  }
  assetTotals(): AssetTotal[] {
    return unavailable();
  }
}
