// The columnar core's settlement of a fill (settle.ts, its fast path): money, fees in money or
// in LTT and rounding toward the exchange, each balance change with its leg; and the funds an
// order freezes and may still need (lifecycle.ts). A layer of the core (recordedState.ts).

import { InvariantViolation } from '../errors.js';
import { ceilDivN, floorDivN, SAFE_MAX, SAFE_MAX_BIG, toSafe } from '../fastmath.js';
import { lttFeeFits, lttFeeFor } from '../settle.js';
import { LTT } from '../state.js';
import { KIND_MAIN, KIND_TRADE } from './balanceCell.js';
import type { ColumnarMarket } from './columnarMarket.js';
import {
  O_DEAL_FEE,
  O_DEAL_FEE_LTT,
  O_DEAL_MONEY,
  O_DEAL_STOCK,
  O_FEE_UNITS,
  O_FROZEN,
  O_FUNDS_FROZEN,
  O_ID,
  O_LEFT,
  O_MARKET,
  O_MONEY_UNITS,
  O_MTIME,
  O_SIDE,
  O_TICKS,
  O_TOTAL,
  O_USER,
  ORDER_WIDTH,
} from './orderRow.js';
import { BIG_UNITS } from './orderTable.js';
import { RecordedState } from './recordedState.js';
import {
  BUSINESS_ORDER_FREEZE,
  BUSINESS_TRADE,
  DEAL_MAKER_LTT,
  DEAL_RECORD,
  DEAL_TAKER_LTT,
  K_DEAL,
} from './recordLayout.js';

/** A sum the bounds checked before the command began keep below 2^53; a bug otherwise. */
export function checked(v: number): number {
  if (v > SAFE_MAX) throw new InvariantViolation('columnar core: a quantity passed 2^53');
  return v;
}

/** A value the bounds checked before the command keep below 2^53, as a number; a bug otherwise. */
function safeOrHalt(v: bigint): number {
  if (v > SAFE_MAX_BIG || v < -SAFE_MAX_BIG) {
    throw new InvariantViolation('columnar core: a quantity passed 2^53');
  }
  return Number(v);
}

/** What settleBig gives settleFill, in money minor units (LTT for a fee in LTT, else -1). */
class BigFill {
  gross = 0;
  paid = 0;
  buyerFee = 0;
  sellerFee = 0;
  buyerLtt = -1;
  sellerLtt = -1;
}

/** The core with the settlement of fills and the freezing of funds. */
export abstract class Settlement extends RecordedState {
  private readonly bigFill = new BigFill();

  /** As Placement.available does: the holder's trade balance of the asset exists from here on. */
  protected ensureTrade(holder: number, asset: number): void {
    this.holders.ensureAccounts(holder, asset);
  }

  protected hasAvailable(holder: number, asset: number, need: number): boolean {
    const b = this.balances;
    return b.hasAvailable(asset, b.cell(holder, KIND_TRADE), need);
  }

  /** The last price into the registry's market, for the bigint core's checks that read it. */
  protected syncLast(cm: ColumnarMarket): void {
    cm.market.last = BigInt(cm.lastTicks) * cm.tickSize;
  }

  /**
   * One fill (settle.ts): money, fees and rounding, with its events. In numbers while every
   * numerator (fastmath.ts) is below 2^53; else in bigint, as the bigint core computes it
   * (settleBig). Either way what moves is below 2^53: the bounds checked before the command.
   * NOTE: one function of 130 lines, past what this project's functions keep to, for the speed
   * of every trade: split into the money side in numbers, the deal's record and the balance
   * moves (the amounts passed in an object, as settleBig passes them), the engine took 4% more
   * CPU time on the bench's workload (npm run bench:engine-ab, base over new 0.961, 0.942 to
   * 0.976, against a control of 0.994, 0.975 to 1.064): the compiler did not inline two of the
   * parts, and each fill then made two calls more.
   */
  protected settleFill(
    cm: ColumnarMarket,
    t: number,
    maker: number,
    ticks: number,
    amount: number,
  ): void {
    const ord = this.table.rows;
    const takerBuys = ord[t * ORDER_WIDTH + O_SIDE] === 2;
    const buyer = takerBuys ? t : maker;
    const seller = takerBuys ? maker : t;
    const b = buyer * ORDER_WIDTH;
    const s = seller * ORDER_WIDTH;
    const holders = this.holders;
    let gross: number;
    let paid: number;
    let buyerFee: number;
    let sellerFee: number;
    // A fee in LTT, for a user who asked for it and has it (settle.ts); -1 for one in money.
    let buyerLtt = -1;
    let sellerLtt = -1;
    const lotsTicks = cm.lotsTicks(amount, ticks);
    const value = lotsTicks * cm.valueP;
    const perRate = lotsTicks * cm.feeP;
    const buyerFeeNum = perRate * (takerBuys ? cm.takerRate : cm.makerRate);
    const sellerFeeNum = perRate * (takerBuys ? cm.makerRate : cm.takerRate);
    const moneyUnitsBefore = ord[b + O_MONEY_UNITS]!;
    const feeUnitsBefore = ord[b + O_FEE_UNITS]!;
    // NOTE: a rounded product or sum above SAFE_MAX means the exact one is (fastmath.ts mulSafe);
    // one at or below it is exact. BIG_UNITS is below zero.
    if (
      value <= SAFE_MAX &&
      perRate <= SAFE_MAX &&
      buyerFeeNum <= SAFE_MAX &&
      sellerFeeNum <= SAFE_MAX &&
      moneyUnitsBefore >= 0 &&
      moneyUnitsBefore + value <= SAFE_MAX &&
      feeUnitsBefore + buyerFeeNum <= SAFE_MAX
    ) {
      if (holders.lttFeeUsers > 0) {
        buyerLtt = this.lttFee(cm, buyer, BigInt(buyerFeeNum) * cm.feeUnit);
        sellerLtt = this.lttFee(cm, seller, BigInt(sellerFeeNum) * cm.feeUnit);
      }
      const moneyUnits = moneyUnitsBefore + value;
      gross = floorDivN(value, cm.valueQ);
      const paidTotal = ceilDivN(moneyUnits, cm.valueQ);
      paid = paidTotal - ceilDivN(moneyUnitsBefore, cm.valueQ);
      ord[b + O_MONEY_UNITS] = moneyUnits;
      ord[b + O_DEAL_MONEY] = paidTotal;
      buyerFee = buyerLtt;
      if (buyerLtt < 0) {
        const feeUnits = feeUnitsBefore + buyerFeeNum;
        const buyerFeeTotal = ceilDivN(feeUnits, cm.feeQ);
        buyerFee = buyerFeeTotal - ceilDivN(feeUnitsBefore, cm.feeQ);
        ord[b + O_FEE_UNITS] = feeUnits;
        ord[b + O_DEAL_FEE] = buyerFeeTotal;
      }
      sellerFee = sellerLtt;
      if (sellerLtt < 0) {
        sellerFee = ceilDivN(sellerFeeNum, cm.feeQ);
        if (sellerFee > gross) sellerFee = gross;
      }
    } else {
      const big = this.settleBig(cm, buyer, seller, amount, ticks, takerBuys);
      gross = big.gross;
      paid = big.paid;
      buyerFee = big.buyerFee;
      sellerFee = big.sellerFee;
      buyerLtt = big.buyerLtt;
      sellerLtt = big.sellerLtt;
    }

    const dealId = this.meta.nextDealId++;
    const at = this.reserve(DEAL_RECORD);
    const log = this.log;
    log[at] = K_DEAL;
    log[at + 1] = ++this.meta.lastEventSeq;
    log[at + 2] = dealId;
    log[at + 3] = cm.index;
    log[at + 4] = ticks;
    log[at + 5] = amount;
    log[at + 6] = gross;
    const makerLtt = takerBuys ? sellerLtt : buyerLtt;
    const takerLtt = takerBuys ? buyerLtt : sellerLtt;
    log[at + 7] =
      ord[t * ORDER_WIDTH + O_SIDE]! +
      (makerLtt >= 0 ? DEAL_MAKER_LTT : 0) +
      (takerLtt >= 0 ? DEAL_TAKER_LTT : 0);
    log[at + 8] = ord[maker * ORDER_WIDTH + O_ID]!;
    log[at + 9] = ord[t * ORDER_WIDTH + O_ID]!;
    log[at + 10] = holders.ownerCode(ord[maker * ORDER_WIDTH + O_USER]!);
    log[at + 11] = holders.ownerCode(ord[t * ORDER_WIDTH + O_USER]!);
    log[at + 12] = takerBuys ? sellerFee : buyerFee;
    log[at + 13] = takerBuys ? buyerFee : sellerFee;

    this.beginBalance(BUSINESS_TRADE, ord[t * ORDER_WIDTH + O_ID]!, dealId);
    if (buyerLtt > 0) this.payLtt(buyer, buyerLtt);
    this.spend(buyer, cm.money, buyerLtt >= 0 ? paid : paid + buyerFee);
    this.move(ord[b + O_USER]!, cm.stock, KIND_TRADE, amount, 0);
    if (sellerLtt > 0) this.payLtt(seller, sellerLtt);
    const sellerMoneyFee = sellerLtt >= 0 ? 0 : sellerFee;
    if (sellerMoneyFee !== 0) ord[s + O_DEAL_FEE]! += sellerMoneyFee;
    this.spend(seller, cm.stock, amount);
    ord[s + O_DEAL_MONEY]! += gross;
    this.move(ord[s + O_USER]!, cm.money, KIND_TRADE, gross - sellerMoneyFee, 0);
    const fees = (buyerLtt >= 0 ? 0 : buyerFee) + sellerMoneyFee;
    if (fees > 0) {
      holders.ensureAccounts(holders.fees, cm.money);
      this.move(holders.fees, cm.money, KIND_MAIN, fees, 0);
    }
    const remainder = paid - gross;
    if (remainder < 0) {
      throw new InvariantViolation(`negative rounding on order ${ord[b + O_ID]}`);
    }
    if (remainder > 0) {
      holders.ensureAccounts(holders.rounding, cm.money);
      this.move(holders.rounding, cm.money, KIND_MAIN, remainder, 0);
    }
    this.endBalance();

    ord[t * ORDER_WIDTH + O_DEAL_STOCK]! += amount;
    ord[maker * ORDER_WIDTH + O_DEAL_STOCK]! += amount;
    ord[maker * ORDER_WIDTH + O_LEFT]! -= amount;
    const tr = t * ORDER_WIDTH;
    const total = ord[tr + O_TOTAL]!;
    if (total > 0) ord[tr + O_LEFT] = total - ord[tr + O_DEAL_MONEY]! - ord[tr + O_DEAL_FEE]!;
    else ord[tr + O_LEFT]! -= amount;
    ord[tr + O_MTIME] = this.time;
    ord[maker * ORDER_WIDTH + O_MTIME] = this.time;
  }

  /**
   * A fill's money side in bigint (settle.ts settleMoneyBig), for a fill whose numerators pass
   * 2^53: the buyer's numerators go to OrderTable.bigUnits and stay there. What it moves is
   * below 2^53 (the order's bounds); the rest of settleFill moves it.
   */
  private settleBig(
    cm: ColumnarMarket,
    buyer: number,
    seller: number,
    amount: number,
    ticks: number,
    takerBuys: boolean,
  ): BigFill {
    const m = cm.market;
    const ord = this.table.rows;
    const b = buyer * ORDER_WIDTH;
    const out = this.bigFill;
    const num = BigInt(amount) * BigInt(ticks) * cm.tickSize;
    const gross = num / m.scale;
    const moneyNum = this.moneyNumOf(cm, buyer) + num;
    let feeNum = this.feeNumOf(cm, buyer);
    const paidTotal = (moneyNum + m.scaleUp) / m.scale;
    out.gross = safeOrHalt(gross);
    out.paid = safeOrHalt(paidTotal) - ord[b + O_DEAL_MONEY]!;
    ord[b + O_DEAL_MONEY] = safeOrHalt(paidTotal);
    const buyerFeeNum = num * (takerBuys ? m.takerFee : m.makerFee);
    const sellerFeeNum = num * (takerBuys ? m.makerFee : m.takerFee);
    const holders = this.holders;
    out.buyerLtt = holders.lttFeeUsers > 0 ? this.lttFee(cm, buyer, buyerFeeNum) : -1;
    out.sellerLtt = holders.lttFeeUsers > 0 ? this.lttFee(cm, seller, sellerFeeNum) : -1;
    out.buyerFee = out.buyerLtt;
    if (out.buyerLtt < 0) {
      feeNum += buyerFeeNum;
      const feeTotal = safeOrHalt((feeNum + m.feeScaleUp) / m.feeScale);
      out.buyerFee = feeTotal - ord[b + O_DEAL_FEE]!;
      ord[b + O_DEAL_FEE] = feeTotal;
    }
    out.sellerFee = out.sellerLtt;
    if (out.sellerLtt < 0) {
      const fee = (sellerFeeNum + m.feeScaleUp) / m.feeScale;
      out.sellerFee = fee > gross ? out.gross : safeOrHalt(fee);
    }
    ord[b + O_MONEY_UNITS] = BIG_UNITS;
    ord[b + O_FEE_UNITS] = BIG_UNITS;
    this.table.bigUnits.set(buyer, { moneyNum, feeNum });
    return out;
  }

  /** An order's money numerator (order.ts moneyNum), from its row or OrderTable.bigUnits. */
  moneyNumOf(cm: ColumnarMarket, o: number): bigint {
    const units = this.table.rows[o * ORDER_WIDTH + O_MONEY_UNITS]!;
    if (units !== BIG_UNITS) return BigInt(units) * cm.moneyUnit;
    return this.table.bigUnits.get(o)!.moneyNum;
  }

  /** An order's fee numerator (order.ts feeNum), from its row or OrderTable.bigUnits. */
  feeNumOf(cm: ColumnarMarket, o: number): bigint {
    const units = this.table.rows[o * ORDER_WIDTH + O_FEE_UNITS]!;
    if (units !== BIG_UNITS) return BigInt(units) * cm.feeUnit;
    return this.table.bigUnits.get(o)!.feeNum;
  }

  /**
   * The fee in LTT of order `o`, for a fee numerator in money (order.ts feeNum), when its user
   * pays fees in LTT, LTT has a price, the order's fees in LTT stay within their cap and the user
   * has it available; else -1, the fee being paid in money (settle.ts takeLttFee). Rare: in
   * bigint. The cap keeps the fee, and the order's sum of them, safe integers.
   */
  private lttFee(cm: ColumnarMarket, o: number, feeNum: bigint): number {
    const fee = this.lttFeeOwed(cm, o, feeNum);
    if (fee < 0) return -1;
    const holder = this.table.rows[o * ORDER_WIDTH + O_USER]!;
    const ltt = this.meta.assets.get(LTT)!.index;
    // As the bigint core's does, asking for the balance makes it exist.
    this.holders.ensureAccounts(holder, ltt);
    return this.hasAvailable(holder, ltt, fee) ? fee : -1;
  }

  /** lttFee read without making the balance exist (settle.ts lttFeeDue). */
  protected lttFeeDue(cm: ColumnarMarket, o: number, feeNum: bigint): number {
    const fee = this.lttFeeOwed(cm, o, feeNum);
    if (fee < 0) return -1;
    const holder = this.table.rows[o * ORDER_WIDTH + O_USER]!;
    return this.hasAvailable(holder, this.meta.assets.get(LTT)!.index, fee) ? fee : -1;
  }

  /**
   * The fee in LTT order `o` owes for a fee numerator if its user pays in LTT, before the LTT
   * available is asked: -1 when the user does not, LTT has no price, or the order's cap passes.
   */
  private lttFeeOwed(cm: ColumnarMarket, o: number, feeNum: bigint): number {
    const row = o * ORDER_WIDTH;
    const ord = this.table.rows;
    if (!this.holders.paysLtt(ord[row + O_USER]!)) return -1;
    const m = cm.market;
    const lttMarket = this.marketsByName.get(m.lttMarketName);
    if (lttMarket !== undefined) this.syncLast(lttMarket);
    const fee = lttFeeFor(this.meta, m, feeNum);
    if (fee < 0n || !lttFeeFits(BigInt(ord[row + O_DEAL_FEE_LTT]!), fee)) return -1;
    // A safe integer: the cap keeps the order's fees in LTT, this one with them, below 2^53.
    return toSafe(fee);
  }

  /** Move an order's fee in LTT from its user's trade balance to the fees account. */
  private payLtt(o: number, fee: number): void {
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    const ltt = this.meta.assets.get(LTT)!.index;
    this.move(ord[row + O_USER]!, ltt, KIND_TRADE, -fee, 0);
    this.holders.ensureAccounts(this.holders.fees, ltt);
    this.move(this.holders.fees, ltt, KIND_MAIN, fee, 0);
    ord[row + O_DEAL_FEE_LTT] = checked(ord[row + O_DEAL_FEE_LTT]! + fee);
  }

  /** Take funds for a fill: from the order's frozen funds, or from available for a taker. */
  private spend(o: number, asset: number, amount: number): void {
    if (amount === 0) return;
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    if (ord[row + O_FUNDS_FROZEN] === 1) {
      ord[row + O_FROZEN]! -= amount;
      this.move(ord[row + O_USER]!, asset, KIND_TRADE, 0, -amount);
    } else {
      this.move(ord[row + O_USER]!, asset, KIND_TRADE, -amount, 0);
    }
  }

  /** What an open order may still pay from its frozen funds (lifecycle.ts remainingNeed). */
  protected remainingNeed(cm: ColumnarMarket, o: number): number {
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    if (ord[row + O_SIDE] === 1) return ord[row + O_LEFT]!;
    const lotsTicks = cm.lotsTicks(ord[row + O_LEFT]!, ord[row + O_TICKS]!);
    const moneyUnits = ord[row + O_MONEY_UNITS]!;
    const money = moneyUnits + lotsTicks * cm.valueP;
    const fee = ord[row + O_FEE_UNITS]! + lotsTicks * cm.feeP * cm.maxRate;
    if (moneyUnits < 0 || money > SAFE_MAX || fee > SAFE_MAX) return this.remainingNeedBig(cm, o);
    return (
      ceilDivN(money, cm.valueQ) +
      ceilDivN(fee, cm.feeQ) -
      ord[row + O_DEAL_MONEY]! -
      ord[row + O_DEAL_FEE]!
    );
  }

  /** remainingNeed in bigint, for a buy whose numerators pass 2^53: rare. */
  private remainingNeedBig(cm: ColumnarMarket, o: number): number {
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    const m = cm.market;
    const num = BigInt(ord[row + O_LEFT]!) * BigInt(ord[row + O_TICKS]!) * cm.tickSize;
    const money = (this.moneyNumOf(cm, o) + num + m.scaleUp) / m.scale;
    const fee = (this.feeNumOf(cm, o) + num * m.maxFee + m.feeScaleUp) / m.feeScale;
    const paid = BigInt(ord[row + O_DEAL_MONEY]!) + BigInt(ord[row + O_DEAL_FEE]!);
    return safeOrHalt(money + fee - paid);
  }

  protected freezeForOrder(o: number, amount: number): void {
    const ord = this.table.rows;
    const row = o * ORDER_WIDTH;
    ord[row + O_FUNDS_FROZEN] = 1;
    if (amount === 0) return;
    const cm = this.markets[ord[row + O_MARKET]! | 0]!;
    const asset = ord[row + O_SIDE] === 1 ? cm.stock : cm.money;
    this.beginBalance(BUSINESS_ORDER_FREEZE, ord[row + O_ID]!, 0);
    this.move(ord[row + O_USER]!, asset, KIND_TRADE, -amount, amount);
    this.endBalance();
    ord[row + O_FROZEN]! += amount;
  }
}
