// Settling one fill: money, fees and rounding, all in the exchange's favour, never overdrawing.
//
// A fill of `amount` at `price` is worth amount × price / 10^stockDecimals money minor units,
// which need not be whole. The buyer's payment is rounded up *cumulatively per order*
// (deal_money = ceil(Σ amount × price / scale)), and so is the buyer's fee, so an order never
// pays more than the funds frozen for its worst case. The seller receives each fill's value
// rounded down, less a fee rounded up. The difference between what the buyer paid and what
// the seller was credited goes to the `rounding` account: it is never negative, because the
// buyer's cumulative ceiling grows by at least floor(fill value) on every fill.
import { ceilDiv } from './bigmath.js';
import { InvariantViolation } from './errors.js';
import { FillAmounts, fillAmounts, mulSafe, toSafe } from './fastmath.js';
import { type Balance, LegBuffer, move } from './ledger.js';
import type { Market } from './market.js';
import type { Order } from './order.js';
import { LTT, type State } from './state.js';

/**
 * The fee in LTT for a fee numerator (money minor × scale × ppm), at half price, valued at
 * the last price of LTT_{money}; -1 when there is no such price. A market whose money is LTT
 * needs no conversion.
 */
export function lttFeeFor(s: State, m: Market, feeNum: bigint): bigint {
  if (m.money === LTT) return ceilDiv(feeNum, m.feeScale * 2n);
  const lttMarket = s.markets.get(m.lttMarketName);
  if (lttMarket === undefined || lttMarket.last === 0n) return -1n;
  return ceilDiv(feeNum * lttMarket.scale, m.feeScale * 2n * lttMarket.last);
}

/**
 * The most an order pays in fees in LTT, in LTT minor units: 2^53 − 1 (about 90 million LTT at 8
 * decimals). A fee that would take the order's fees in LTT past it is paid in money instead.
 * NOTE: a fee in LTT is the money fee at half the LTT price, so it has no bound of its own: at a
 * price near nothing, one fill could take all of a user's LTT. This cap bounds what one order can
 * take that way, and keeps every fee in LTT, and every order's sum of them, exact in a double, so
 * the columnar core takes them whatever the LTT in the exchange (columnar-engine.md).
 */
export const LTT_FEES_PER_ORDER_MAX = 2n ** 53n - 1n;

/** Whether an order that has paid `paid` in LTT fees may pay `fee` more in LTT. */
export function lttFeeFits(paid: bigint, fee: bigint): boolean {
  return paid + fee <= LTT_FEES_PER_ORDER_MAX;
}

/**
 * The fee in LTT order `o`, whose user has the custom fee on, would pay for a fill's fee
 * numerator, read without taking it: -1 when takeLttFee would not take it (LTT without a price,
 * the order's cap passed, or too little LTT available). A buy by total asks before a fill
 * (match.ts amountPayingLtt).
 */
export function lttFeeDue(s: State, o: Order, feeNum: bigint): bigint {
  const fee = lttFeeFor(s, o.market, feeNum);
  if (fee < 0n || !lttFeeFits(o.dealFeeLtt, fee)) return -1n;
  const available = o.user.find(LTT)?.trade.available ?? 0n;
  return available < fee ? -1n : fee;
}

/** Try to take the fee in LTT from the user's trade balance; returns the LTT taken or -1. */
function takeLttFee(s: State, o: Order, feeNum: bigint, legs: LegBuffer): bigint {
  const fee = lttFeeFor(s, o.market, feeNum);
  if (fee < 0n || !lttFeeFits(o.dealFeeLtt, fee)) return -1n;
  const lttBal = o.user.balance(LTT, 'trade');
  if (lttBal.available < fee) return -1n;
  if (fee > 0n) {
    move(legs, lttBal, -fee, 0n);
    move(legs, s.fees.balance(LTT, 'main'), fee, 0n);
    o.dealFeeLtt += fee;
  }
  return fee;
}

/** Take funds for a fill: from the order's frozen funds, or from available for a fresh taker. */
function spend(legs: LegBuffer, o: Order, bal: Balance, amount: bigint): void {
  if (amount === 0n) return;
  if (o.fundsFrozen) {
    o.frozen -= amount;
    move(legs, bal, 0n, -amount);
  } else {
    move(legs, bal, -amount, 0n);
  }
}

/** What the deal event reports of a fill's money side, written by either settle path. */
class DealOutcome {
  gross = 0n;
  buyerFee = 0n;
  buyerFeeAsset = '';
  sellerFee = 0n;
  sellerFeeAsset = '';
}

const outcome = new DealOutcome();
const amounts = new FillAmounts();
const fillLegs = new LegBuffer();

/** Move the money side of a fill in bigint: LTT fees and whatever the fast path cannot take. */
function settleMoneyBig(
  s: State,
  buyer: Order,
  seller: Order,
  amount: bigint,
  price: bigint,
  takerBuys: boolean,
  legs: LegBuffer,
): void {
  const m = buyer.market;
  const buyerRate = takerBuys ? m.takerFee : m.makerFee;
  const sellerRate = takerBuys ? m.makerFee : m.takerFee;
  const num = amount * price;
  const gross = num / m.scale;

  buyer.moneyNum += num;
  const paidTotal = (buyer.moneyNum + m.scaleUp) / m.scale;
  const paid = paidTotal - buyer.dealMoney;
  buyer.dealMoney = paidTotal;

  let buyerFee = 0n;
  let buyerFeeAsset = m.money;
  const buyerFeeNum = num * buyerRate;
  const buyerLtt = buyer.user.customFee ? takeLttFee(s, buyer, buyerFeeNum, legs) : -1n;
  if (buyerLtt >= 0n) {
    buyerFee = buyerLtt;
    buyerFeeAsset = LTT;
  } else {
    buyer.feeNum += buyerFeeNum;
    const feeTotal = (buyer.feeNum + m.feeScaleUp) / m.feeScale;
    buyerFee = feeTotal - buyer.dealFee;
    buyer.dealFee = feeTotal;
  }
  spend(legs, buyer, buyer.moneyBal, buyerLtt >= 0n ? paid : paid + buyerFee);
  move(legs, buyer.stockBal, amount, 0n);

  let sellerFee = 0n;
  let sellerFeeAsset = m.money;
  const sellerFeeNum = num * sellerRate;
  const sellerLtt = seller.user.customFee ? takeLttFee(s, seller, sellerFeeNum, legs) : -1n;
  if (sellerLtt >= 0n) {
    sellerFee = sellerLtt;
    sellerFeeAsset = LTT;
  } else {
    sellerFee = (sellerFeeNum + m.feeScaleUp) / m.feeScale;
    if (sellerFee > gross) sellerFee = gross;
    if (sellerFee !== 0n) seller.dealFee += sellerFee;
  }
  spend(legs, seller, seller.stockBal, amount);
  seller.dealMoney += gross;
  const sellerMoneyFee = sellerLtt >= 0n ? 0n : sellerFee;
  move(legs, seller.moneyBal, gross - sellerMoneyFee, 0n);

  const moneyFees = (buyerLtt >= 0n ? 0n : buyerFee) + sellerMoneyFee;
  creditExchange(s, m, buyer, moneyFees, paid - gross, legs);
  outcome.gross = gross;
  outcome.buyerFee = buyerFee;
  outcome.buyerFeeAsset = buyerFeeAsset;
  outcome.sellerFee = sellerFee;
  outcome.sellerFeeAsset = sellerFeeAsset;
}

/**
 * The same moves as settleMoneyBig for a fill without LTT fees, with the amounts computed in
 * numbers (fastmath.ts); false, with nothing moved, when a bound does not hold.
 */
function settleMoneyFast(
  s: State,
  buyer: Order,
  seller: Order,
  maker: Order,
  amount: bigint,
  takerBuys: boolean,
  legs: LegBuffer,
): boolean {
  const m = buyer.market;
  const r = m.ratios;
  if (r === null || buyer.user.customFee || seller.user.customFee) return false;
  const lotsTicks = mulSafe(toSafe(amount), maker.ticks);
  const buyerRate = takerBuys ? r.takerRate : r.makerRate;
  const sellerRate = takerBuys ? r.makerRate : r.takerRate;
  const f = amounts;
  if (lotsTicks < 0) return false;
  if (!fillAmounts(r, lotsTicks, buyer.moneyUnits, buyer.feeUnits, buyerRate, sellerRate, f)) {
    return false;
  }
  const gross = BigInt(f.gross);
  const buyerFee = BigInt(f.buyerFee);
  const sellerFee = BigInt(f.sellerFee);
  buyer.moneyUnits = f.moneyUnits;
  buyer.feeUnits = f.feeUnits;
  buyer.dealMoney = BigInt(f.paidTotal);
  buyer.dealFee = BigInt(f.buyerFeeTotal);
  spend(legs, buyer, buyer.moneyBal, BigInt(f.paid + f.buyerFee));
  move(legs, buyer.stockBal, amount, 0n);
  if (f.sellerFee !== 0) seller.dealFee += sellerFee;
  spend(legs, seller, seller.stockBal, amount);
  seller.dealMoney += gross;
  move(legs, seller.moneyBal, BigInt(f.gross - f.sellerFee), 0n);
  creditExchange(s, m, buyer, BigInt(f.buyerFee + f.sellerFee), BigInt(f.paid - f.gross), legs);
  outcome.gross = gross;
  outcome.buyerFee = buyerFee;
  outcome.buyerFeeAsset = m.money;
  outcome.sellerFee = sellerFee;
  outcome.sellerFeeAsset = m.money;
  return true;
}

/** Credit the money fees and what rounding kept back (never negative) to the exchange. */
function creditExchange(
  s: State,
  m: Market,
  buyer: Order,
  moneyFees: bigint,
  remainder: bigint,
  legs: LegBuffer,
): void {
  if (moneyFees > 0n) {
    m.feeAccount ??= s.fees.accounts(m.money).main;
    move(legs, m.feeAccount, moneyFees, 0n);
  }
  if (remainder < 0n) throw new InvariantViolation(`negative rounding on order ${buyer.id}`);
  if (remainder > 0n) {
    m.roundingAccount ??= s.rounding.accounts(m.money).main;
    move(legs, m.roundingAccount, remainder, 0n);
  }
}

/** Settle one fill between a taker and a resting maker, and emit its deal and balance events. */
export function settleFill(s: State, taker: Order, maker: Order, price: bigint, amount: bigint) {
  const m = taker.market;
  const takerBuys = taker.side === 2;
  const buyer = takerBuys ? taker : maker;
  const seller = takerBuys ? maker : taker;
  // NOTE: a throw mid-fill (a bug; the host halts) could leave legs behind: start empty.
  const legs = fillLegs;
  legs.clear();
  if (!settleMoneyFast(s, buyer, seller, maker, amount, takerBuys, legs)) {
    settleMoneyBig(s, buyer, seller, amount, price, takerBuys, legs);
  }

  taker.dealStock += amount;
  maker.dealStock += amount;
  maker.left -= amount;
  if (taker.total > 0n) taker.left = taker.total - taker.dealMoney - taker.dealFee;
  else taker.left -= amount;
  taker.mtime = s.time;
  maker.mtime = s.time;
  s.lastViewOrder = null;

  const o = outcome;
  const dealId = s.nextDealId++;
  s.events.push({
    seq: ++s.lastEventSeq,
    time: s.time,
    type: 'deal',
    id: dealId,
    market: m.name,
    price,
    amount,
    total: o.gross,
    takerSide: taker.side,
    makerOrderId: maker.id,
    takerOrderId: taker.id,
    makerUserId: maker.user.userId,
    takerUserId: taker.user.userId,
    makerFee: takerBuys ? o.sellerFee : o.buyerFee,
    makerFeeAsset: takerBuys ? o.sellerFeeAsset : o.buyerFeeAsset,
    takerFee: takerBuys ? o.buyerFee : o.sellerFee,
    takerFeeAsset: takerBuys ? o.buyerFeeAsset : o.sellerFeeAsset,
  });
  s.emitBalance('trade', null, taker.id, dealId, legs.take());
}
