// An open order as a snapshot's row, and a row as an order's fields: the one format both cores
// write and read (snapshot.ts for the bigint core, columnar/restore.ts for the columnar one).
import { bigintFromJson } from './codec.js';
import type { Order } from './order.js';
import type { SelfTradePrevention, SnapshotOrder, SnapshotOrderRow } from './types.js';
import { selfTradeCode } from './validate.js';

/** Decimal text of a bigint; zero, the commonest value on an order, without a conversion. */
function text(v: bigint): string {
  return v === 0n ? '0' : v.toString();
}

/** An open order of the bigint core as a snapshot's row; the default self-trade mode left off. */
export function snapshotOrder(o: Order): SnapshotOrderRow {
  const row: SnapshotOrderRow = [
    o.id,
    o.user.userId,
    o.market.name,
    o.side,
    o.type,
    o.algorithm,
    o.timeInForce,
    o.source,
    text(o.amount),
    text(o.total),
    text(o.price),
    text(o.stopPrice),
    text(o.limitPrice),
    text(o.left),
    text(o.dealStock),
    text(o.dealMoney),
    text(o.dealFee),
    text(o.dealFeeLtt),
    o.triggered ? 1 : 0,
    o.ocoId,
    o.ctime,
    o.mtime,
    text(o.frozen),
    text(o.moneyNum),
    text(o.feeNum),
    o.direction,
  ];
  if (o.selfTrade !== 'cancelNewest') row.push(o.selfTrade);
  return row;
}

/** A version 1 order (a keyed view and its accounting) as a row of the current format. */
export function rowOfV1(so: SnapshotOrder): SnapshotOrderRow {
  const v = so.view;
  return [
    v.id,
    v.userId,
    v.market,
    v.side,
    v.type,
    v.algorithm,
    v.timeInForce,
    v.platform,
    v.amount,
    v.total,
    v.price,
    v.stop_price,
    v.limit_price,
    v.left,
    v.deal_stock,
    v.deal_money,
    v.deal_fee,
    v.deal_fee_ltt,
    v.triggered ? 1 : 0,
    v.oco_id,
    v.ctime,
    v.mtime,
    so.frozen,
    so.moneyNum,
    so.feeNum,
    so.direction,
  ] as SnapshotOrderRow;
}

/** A bigint of a snapshot's decimal text; "0", most of an order's fields, without parsing. */
function big(value: unknown, field: string): bigint {
  return value === '0' ? 0n : bigintFromJson(value, field);
}

/**
 * An open order's fields as a restore reads them: from a snapshot's row (openOrderOfRow), or the
 * bigint core's order itself (a move back to the columnar core, columnar/restore.ts).
 */
export type OpenOrder = Pick<
  Order,
  | 'id'
  | 'side'
  | 'type'
  | 'algorithm'
  | 'timeInForce'
  | 'source'
  | 'amount'
  | 'total'
  | 'price'
  | 'stopPrice'
  | 'limitPrice'
  | 'left'
  | 'dealStock'
  | 'dealMoney'
  | 'dealFee'
  | 'dealFeeLtt'
  | 'triggered'
  | 'ocoId'
  | 'ctime'
  | 'mtime'
  | 'frozen'
  | 'moneyNum'
  | 'feeNum'
  | 'direction'
  | 'selfTrade'
> & { readonly user: { readonly userId: number }; readonly market: { readonly name: string } };

/** A snapshot's row as an open order's fields; throws when an amount is not integer text. */
export function openOrderOfRow(row: SnapshotOrderRow): OpenOrder {
  return {
    id: row[0],
    user: { userId: row[1] },
    market: { name: row[2] },
    side: row[3],
    type: row[4],
    algorithm: row[5],
    timeInForce: row[6],
    source: row[7],
    amount: big(row[8], 'amount'),
    total: big(row[9], 'total'),
    price: big(row[10], 'price'),
    stopPrice: big(row[11], 'stop_price'),
    limitPrice: big(row[12], 'limit_price'),
    left: big(row[13], 'left'),
    dealStock: big(row[14], 'deal_stock'),
    dealMoney: big(row[15], 'deal_money'),
    dealFee: big(row[16], 'deal_fee'),
    dealFeeLtt: big(row[17], 'deal_fee_ltt'),
    triggered: row[18] === 1,
    ocoId: row[19],
    ctime: row[20],
    mtime: row[21],
    frozen: big(row[22], 'frozen'),
    moneyNum: big(row[23], 'moneyNum'),
    feeNum: big(row[24], 'feeNum'),
    direction: row[25],
    selfTrade: selfTradeOfRow(row),
  };
}

/** The self-trade prevention of a row: absent for the default; anything unknown throws. */
function selfTradeOfRow(row: SnapshotOrderRow): SelfTradePrevention {
  const value = row.length > 26 ? row[26] : 'cancelNewest';
  if (value === undefined || selfTradeCode(value) < 0) {
    throw new TypeError(`order ${row[0]}: unknown self-trade prevention ${String(value)}`);
  }
  return value as SelfTradePrevention;
}
