import { describe, expect, it } from 'vitest';
import { compareCells, nextSort, sortRows } from './tableSort';

describe('table sort', () => {
  it('goes none → DESC → ASC → DESC, one column at a time', () => {
    const first = nextSort(null, 'price');
    expect(first).toEqual({ column: 'price', direction: 'desc' });
    const second = nextSort(first, 'price');
    expect(second.direction).toBe('asc');
    expect(nextSort(second, 'price').direction).toBe('desc');
    expect(nextSort(second, 'amount')).toEqual({ column: 'amount', direction: 'desc' });
  });

  it('compares decimal strings exactly', () => {
    expect(compareCells('10.5', '9.99')).toBe(1);
    expect(compareCells('0.30000001', '0.3')).toBe(1);
    expect(compareCells('2', '2.000')).toBe(0);
  });

  it('sorts rows by the chosen column and keeps them as they came without one', () => {
    const rows = [{ p: '2' }, { p: '10' }, { p: '1.5' }];
    const cell = (row: { p: string }) => row.p;
    expect(sortRows(rows, { column: 'p', direction: 'desc' }, cell).map((r) => r.p)).toEqual([
      '10',
      '2',
      '1.5',
    ]);
    expect(sortRows(rows, null, cell)).toEqual(rows);
  });
});
