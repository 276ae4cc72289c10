import { describe, expect, it } from 'vitest';
import { isoTime, toCsv } from './csv.js';

describe('toCsv', () => {
  it('quotes what needs quoting and defuses formulas', () => {
    const csv = toCsv(
      ['a', 'b'],
      [
        ['plain', 'with,comma'],
        ['say "hi"', '=SUM(A1)'],
        ['-0.5', null],
      ],
    );
    expect(csv).toBe('a,b\r\nplain,"with,comma"\r\n"say ""hi""","\t=SUM(A1)"\r\n-0.5,\r\n');
  });

  it('writes times in UTC and nothing for 0', () => {
    expect(isoTime(Date.UTC(2024, 0, 2, 3, 4, 5))).toBe('2024-01-02T03:04:05.000Z');
    expect(isoTime(0)).toBe('');
  });
});
