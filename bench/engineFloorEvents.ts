// Reading the engine floor's event log back (engineFloor.ts): the records of the command last
// applied, turned into the engine's event objects only when read, as the engine host would read
// them. `bench/engine.ts --floor` compares what this returns with the engine's events.
import type { BalanceLeg, EngineEvent, OrderView, Owner } from '@lattice/engine';
import { limbsToBigInt } from '../packages/engine/src/columnar/limbs.js';
import {
  NONE,
  O_AMOUNT,
  O_CTIME,
  O_ID,
  O_SIDE,
  O_SOURCE,
  O_TICKS,
  O_TYPE,
  O_USER,
  ORDER_WIDTH,
} from '../packages/engine/src/columnar/orderRow.js';
import {
  BUSINESSES,
  EngineFloorState,
  EV_DEAL,
  EV_ORDER,
  ORDER_EVENT_TYPES,
} from './engineFloorState.js';

export abstract class EngineFloorEvents extends EngineFloorState {
  // --- reading the log ----------------------------------------------------------------------

  /** The command's events as the engine's objects (valid until the next apply). */
  events(): EngineEvent[] {
    const out: EngineEvent[] = [];
    const log = this.log;
    let at = 0;
    while (at < this.logLength) {
      const kind = log[at]!;
      const seq = log[at + 1]!;
      if (kind === EV_ORDER) {
        const type = ORDER_EVENT_TYPES[log[at + 2]!]!;
        out.push({ seq, time: this.time, type, order: this.viewAt(at) });
        at += 10;
      } else if (kind === EV_DEAL) {
        const t = log[at + 6]!;
        const maker = log[at + 7]!;
        out.push({
          seq,
          time: this.time,
          type: 'deal',
          id: log[at + 2]!,
          market: this.marketName,
          price: BigInt(log[at + 3]!) * this.tickSize,
          amount: BigInt(log[at + 4]!),
          total: BigInt(log[at + 5]!),
          takerSide: log[at + 10]! as 1 | 2,
          makerOrderId: this.ord[maker * ORDER_WIDTH + O_ID]!,
          takerOrderId: this.ord[t * ORDER_WIDTH + O_ID]!,
          makerUserId: this.ord[maker * ORDER_WIDTH + O_USER]!,
          takerUserId: this.ord[t * ORDER_WIDTH + O_USER]!,
          makerFee: BigInt(log[at + 8]!),
          makerFeeAsset: this.assetName(1),
          takerFee: BigInt(log[at + 9]!),
          takerFeeAsset: this.assetName(1),
        });
        at += 11;
      } else {
        const count = log[at + 5]!;
        const legs: BalanceLeg[] = [];
        for (let k = 0; k < count; k++) legs.push(this.legAt(at + 6 + k * 8));
        out.push({
          seq,
          time: this.time,
          type: 'balance',
          business: BUSINESSES[log[at + 2]!]!,
          businessId: null,
          orderId: log[at + 3]!,
          dealId: log[at + 4]!,
          legs,
        });
        at += 6 + count * 8;
      }
    }
    return out;
  }

  private assetName(asset: number): string {
    return asset === 0 ? this.stock : this.money;
  }

  private legAt(at: number): BalanceLeg {
    const log = this.log;
    const holder = log[at]!;
    const owner: Owner =
      holder === this.feesHolder ? 'fees' : holder === this.roundingHolder ? 'rounding' : holder;
    return {
      owner,
      account: typeof owner === 'number' ? 'trade' : 'main',
      asset: this.assetName(log[at + 1]!),
      availableDelta: BigInt(log[at + 2]!),
      frozenDelta: BigInt(log[at + 3]!),
      available: limbsToBigInt(log, at + 4),
      frozen: limbsToBigInt(log, at + 6),
    };
  }

  private viewAt(at: number): OrderView {
    const log = this.log;
    const o = log[at + 3]!;
    const finish = log[at + 9]!;
    const type = this.ord[o * ORDER_WIDTH + O_TYPE] as 1 | 2;
    return {
      id: this.ord[o * ORDER_WIDTH + O_ID]!,
      userId: this.ord[o * ORDER_WIDTH + O_USER]!,
      platform: this.ord[o * ORDER_WIDTH + O_SOURCE] === 0 ? 'web' : 'api',
      algorithm: 0,
      market: this.marketName,
      account: 0,
      side: this.ord[o * ORDER_WIDTH + O_SIDE] as 1 | 2,
      type,
      timeInForce: type === 1 ? 'GTC' : 'IOC',
      amount: BigInt(this.ord[o * ORDER_WIDTH + O_AMOUNT]!),
      total: 0n,
      price: BigInt(this.ord[o * ORDER_WIDTH + O_TICKS]!) * this.tickSize,
      stop_price: 0n,
      limit_price: 0n,
      left: BigInt(log[at + 4]!),
      deal_stock: BigInt(log[at + 5]!),
      deal_money: BigInt(log[at + 6]!),
      deal_fee: BigInt(log[at + 7]!),
      deal_fee_ltt: 0n,
      triggered: false,
      oco_id: 0,
      ctime: this.ord[o * ORDER_WIDTH + O_CTIME]!,
      mtime: log[at + 8]!,
      ftime: finish === NONE ? 0 : this.time,
      finish_reason: finish === NONE ? null : (finish as 0 | 1 | 2 | 3),
    };
  }
}
