// The layout of an order's row in the order table (orderTable.ts): a field's offset in the row.
// NOTE: numbers only, in a module that imports nothing, so that the bundler puts each value in
// place of its name (docs/decisions/inlined-layout-constants.md); a name the compiler must load
// costs a read and a check at every use on the hot paths.

/** "No slot", "no level", "not finished": every link and optional reference uses it. */
export const NONE = -1;

// An order's fields (order.ts), at these offsets in its row. Flags are 0 or 1; amounts are
// exact integers below 2^53; prices are in ticks (price / tick size).
// The fields a match, a cancel or an event reads or writes, first: 15 numbers, 120 bytes, so an
// open order's hot fields share two or three cache lines.
export const O_ID = 0;
/** The holder index of the order's user. */
export const O_USER = 1;
/** 1 sell, 2 buy. */
export const O_SIDE = 2;
export const O_TICKS = 3;
/** Stock not yet filled; for a market buy by total, money not yet spent. */
export const O_LEFT = 4;
/** The order's level in its book side, NONE when not on the book. */
export const O_LEVEL = 5;
export const O_DEAL_STOCK = 6;
export const O_DEAL_MONEY = 7;
export const O_DEAL_FEE = 8;
/** moneyNum and feeNum in the market's DealRatios units (order.ts). */
export const O_MONEY_UNITS = 9;
export const O_FEE_UNITS = 10;
export const O_FROZEN = 11;
export const O_FUNDS_FROZEN = 12;
export const O_MTIME = 13;
/** NONE while open, then the FinishReason. */
export const O_FINISH_REASON = 14;
// The rest: written when an order is placed, read when it is triggered, shown or saved.
export const O_DEAL_FEE_LTT = 15;
/** The market index. */
export const O_MARKET = 16;
/** 1 limit, 2 market. */
export const O_TYPE = 17;
/** 0 plain, 1 stop-limit, 2 OCO leg. */
export const O_ALGORITHM = 18;
/** An index into TIME_IN_FORCE_CODES. */
export const O_TIME_IN_FORCE = 19;
/** An index into SOURCE_CODES. */
export const O_SOURCE = 20;
export const O_AMOUNT = 21;
export const O_TOTAL = 22;
export const O_STOP_TICKS = 23;
export const O_LIMIT_TICKS = 24;
export const O_TRIGGERED = 25;
export const O_OCO_ID = 26;
/** The OCO sibling's slot, NONE when none. */
export const O_SIBLING = 27;
/** Untriggered stop: 1 fires when last ≥ stop, -1 when last ≤ stop. */
export const O_DIRECTION = 28;
export const O_CTIME = 29;
export const O_FTIME = 30;
/** What it does as a taker on meeting its user's resting order: an STP_* code (orderCodes.ts). */
export const O_SELF_TRADE = 31;
export const ORDER_WIDTH = 32;

// An order's links to other orders, at these offsets in its row of the table's `links`
// (slot × LINK_WIDTH), an Int32Array apart from the rows: linking an order in or out of a list
// writes into its neighbours' links, and those neighbours are any open orders. At sixteen bytes
// an order, the links of a book of ten thousand orders take 160 KB where their rows take 2.5 MB,
// so they stay in a core's cache far more often; and a link read as a 32-bit integer indexes
// the next row without a conversion from a double.
/** FIFO links within the order's level (slots, NONE at the ends). */
export const LINK_PREV = 0;
export const LINK_NEXT = 1;
/** Links in the user's list of open orders, newest first (slots, NONE at the ends). */
export const LINK_USER_PREV = 2;
export const LINK_USER_NEXT = 3;
export const LINK_WIDTH = 4;
