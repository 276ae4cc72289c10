// Codes the columnar core keeps in numbers: why a taker stopped matching, and an order's time in
// force.
// NOTE: numbers only, in a module that imports nothing, so that the bundler puts each value in
// place of its name (docs/decisions/inlined-layout-constants.md).

// Why a taker stopped matching: both cores' (match.ts, columnar/matching.ts).
export const STOP_FILLED = 0;
export const STOP_NO_LIQUIDITY = 1;
export const STOP_PRICE = 2;
export const STOP_SELF_TRADE = 3;

// O_TIME_IN_FORCE codes (TIME_IN_FORCE_CODES).
export const TIF_GTC = 0;
export const TIF_IOC = 1;
export const TIF_FOK = 2;
export const TIF_POST_ONLY = 3;

// O_SELF_TRADE codes (validate.ts SELF_TRADE_MODES).
export const STP_CANCEL_NEWEST = 0;
export const STP_CANCEL_OLDEST = 1;
export const STP_CANCEL_BOTH = 2;
