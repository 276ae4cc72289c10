// The layout of a price level's row in a book side (bookSide.ts).
// NOTE: numbers only, in a module that imports nothing, so that the bundler puts each value in
// place of its name (docs/decisions/inlined-layout-constants.md).

// A level's fields, at these offsets in its row.
export const L_TICKS = 0;
/** The first and last order slots of the level's FIFO. */
export const L_HEAD = 1;
export const L_TAIL = 2;
/** Sum of O_LEFT over the level's orders. */
export const L_TOTAL = 3;
export const LEVEL_WIDTH = 4;
