// The layout of the balance table (balanceTable.ts): account kinds, and the offsets in a cell.
// NOTE: numbers only, in a module that imports nothing, so that the bundler puts each value in
// place of its name (docs/decisions/inlined-layout-constants.md).

/** The account kinds' indexes in the balance table (ACCOUNT_KINDS). */
export const KIND_MAIN = 0;
export const KIND_TRADE = 1;
export const KIND_COUNT = 3;
/** Offsets in a cell: each of available and frozen is two limbs (hi, lo). */
export const CELL_AVAILABLE = 0;
export const CELL_FROZEN = 2;
export const CELL_WIDTH = 4;
