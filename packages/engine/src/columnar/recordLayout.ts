// The layout of the event log's records (records.ts): record kinds, the offsets of their fields,
// their sizes and codes.
// NOTE: numbers only, in a module that imports nothing, so that the bundler puts each value in
// place of its name (docs/decisions/inlined-layout-constants.md).

// A record's kind, its first number.
export const K_ORDER = 1;
export const K_DEAL = 2;
export const K_BALANCE = 3;

// An order event's type: an index into ORDER_EVENT_TYPES (records.ts).
export const EV_PUT = 0;
export const EV_UPDATE = 1;
export const EV_FINISH = 2;
export const EV_TRIGGERED = 3;

/**
 * [K_ORDER, seq, type, then the view's numbers at the offsets below]. A plain order's record
 * ends at ORDER_RECORD; a stop-limit order's, an OCO leg's (algorithm 1 or 2) or one that paid
 * fees in LTT goes on to ORDER_RECORD_EXTENDED with its stop and limit prices, OCO id and fee in
 * LTT.
 */
export const R_ID = 3;
export const R_USER_ID = 4;
export const R_MARKET = 5;
export const R_SIDE = 6;
/**
 * type + 4 × algorithm + 16 × triggered + 32 × extended: the view's type, algorithm and
 * triggered, and whether the record goes on to ORDER_RECORD_EXTENDED, in one number.
 */
export const R_TYPE = 7;
export const R_TIME_IN_FORCE = 8;
export const R_SOURCE = 9;
export const R_AMOUNT = 10;
export const R_TOTAL = 11;
export const R_TICKS = 12;
export const R_LEFT = 13;
export const R_DEAL_STOCK = 14;
export const R_DEAL_MONEY = 15;
export const R_DEAL_FEE = 16;
export const R_CTIME = 17;
export const R_MTIME = 18;
export const R_FTIME = 19;
/** -1 while open. */
export const R_FINISH_REASON = 20;
export const ORDER_RECORD = 21;
export const R_STOP_TICKS = 21;
export const R_LIMIT_TICKS = 22;
export const R_OCO_ID = 23;
export const R_DEAL_FEE_LTT = 24;
export const ORDER_RECORD_EXTENDED = 25;
/** R_TYPE of a record at or above this is an extended one. */
export const TYPE_EXTENDED = 32;

/**
 * [K_DEAL, seq, dealId, market, ticks, amount, total, takerSide + fee assets, makerOrderId,
 * takerOrderId, makerUserId, takerUserId, makerFee, takerFee]. A fee is in the market's money,
 * or in LTT when DEAL_MAKER_LTT or DEAL_TAKER_LTT is added to the taker's side.
 */
export const DEAL_RECORD = 14;
export const DEAL_MAKER_LTT = 4;
export const DEAL_TAKER_LTT = 8;

/** [K_BALANCE, seq, business, orderId, dealId, legCount], then the legs. */
export const BALANCE_HEAD = 6;

// A balance event's business: an index into BUSINESSES (records.ts).
export const BUSINESS_TRADE = 0;
export const BUSINESS_ORDER_FREEZE = 1;
export const BUSINESS_ORDER_RELEASE = 2;

/**
 * A leg: [owner, account kind, asset, availableDelta, frozenDelta, then the resulting available
 * and frozen as limbs (hi, lo)]. The owner is the user id, or one of the codes below.
 */
export const LEG_RECORD = 9;
export const OWNER_FEES = -1;
export const OWNER_ROUNDING = -2;
export const OWNER_EXTERNAL = -3;

/** What a command's result is made of: one order's record, or a list of order records. */
export const RESULT_ORDER = 0;
export const RESULT_ORDERS = 1;

// A command's trailer, written after its records: where they start, the command's time, what
// its result is made of, and how many order records it shows, then where each one is. Offsets
// are from the chunk's start.
// NOTE: in the log, not in the result object, so that a result is a few fields and no boxed
// number: every accepted command makes one, and on the bench's workload, with the baseline in
// the same heap, the fewer bytes the engine allocates the fewer of the collections of both
// contenders' garbage fall in its time.
export const T_START = 0;
export const T_TIME = 1;
export const T_KIND = 2;
export const T_COUNT = 3;
export const T_OFFSETS = 4;
