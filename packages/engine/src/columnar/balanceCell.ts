// The layout of the balance table (balanceTable.ts): account kinds, and the offsets in a cell.
// NOTE: numbers only, in a module that imports nothing, so that the bundler puts each value in
// place of its name (docs/decisions/inlined-layout-constants.md).

/** The account kinds' indexes in the balance table (ACCOUNT_KINDS). */
export const KIND_MAIN = 0;
export const KIND_TRADE = 1;
/** Offsets in a cell: each of available and frozen is two limbs (hi, lo). */
export const CELL_AVAILABLE = 0;
export const CELL_FROZEN = 2;
export const CELL_WIDTH = 4;

// In an asset's array, holders in blocks of 2^BLOCK_SHIFT; in a block a region per kind, a cell
// per holder.
export const BLOCK_SHIFT = 10;
export const BLOCK_HOLDERS = 1024;
export const BLOCK_MASK = 1023;
/** Numbers per region (one kind in a block): BLOCK_HOLDERS × CELL_WIDTH. */
export const KIND_STRIDE = 4096;
/** Numbers per block (its kinds' regions): 3 (ACCOUNT_KINDS) × KIND_STRIDE. */
export const BLOCK_STRIDE = 12_288;
