/** Table sorting of SPEC.md §4: one column at a time; none → DESC → ASC → DESC. */

export type SortDirection = 'desc' | 'asc';
export interface SortState {
  column: string;
  direction: SortDirection;
}

/** The sort after a click on `column`'s header. */
export function nextSort(current: SortState | null, column: string): SortState {
  if (current?.column !== column) return { column, direction: 'desc' };
  return { column, direction: current.direction === 'desc' ? 'asc' : 'desc' };
}

const decimal = /^-?\d+(\.\d+)?$/;

/** Compares two cells: decimal strings exactly (no float), other text as text. */
export function compareCells(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const left = String(a);
  const right = String(b);
  if (!decimal.test(left) || !decimal.test(right)) return left.localeCompare(right);
  return compareDecimals(left, right);
}

function compareDecimals(left: string, right: string): number {
  const [leftWhole = '', leftFraction = ''] = left.split('.');
  const [rightWhole = '', rightFraction = ''] = right.split('.');
  const width = Math.max(leftFraction.length, rightFraction.length);
  const a = BigInt(leftWhole + leftFraction.padEnd(width, '0'));
  const b = BigInt(rightWhole + rightFraction.padEnd(width, '0'));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Rows in the order the sort asks for; without a sort, as they came. */
export function sortRows<T>(
  rows: readonly T[],
  sort: SortState | null,
  cell: (row: T, column: string) => string | number,
): T[] {
  if (!sort) return [...rows];
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => sign * compareCells(cell(a, sort.column), cell(b, sort.column)));
}
