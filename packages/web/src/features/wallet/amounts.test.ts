import { describe, expect, it } from 'vitest';
import {
  addAmounts,
  cleanAmountInput,
  compareAmounts,
  isZero,
  subtractAmounts,
  truncateAmount,
} from './amounts';

describe('wallet amounts', () => {
  it('reads typed numbers as the spec says: comma to dot, cut to the decimals', () => {
    expect(cleanAmountInput('1,5')).toBe('1.5');
    expect(cleanAmountInput('0.123456789')).toBe('0.12345678');
    expect(cleanAmountInput('12.3456', 2)).toBe('12.34');
    expect(cleanAmountInput('1a2.3.4')).toBe('12.34');
    expect(cleanAmountInput('-5')).toBe('5');
  });

  it('compares, adds and subtracts exactly', () => {
    expect(compareAmounts('0.30000001', '0.3')).toBe(1);
    expect(compareAmounts('2', '2.000')).toBe(0);
    expect(compareAmounts('9.99', '10')).toBe(-1);
    expect(addAmounts('0.1', '0.2')).toBe('0.3');
    expect(addAmounts('10', '0.0002')).toBe('10.0002');
    expect(subtractAmounts('10', '0.0002')).toBe('9.9998');
    expect(subtractAmounts('0.0001', '0.0002')).toBe('0');
    expect(isZero('0.000')).toBe(true);
    expect(isZero('0.00000001')).toBe(false);
    expect(truncateAmount('99880.10852', 2)).toBe('99880.1');
    expect(truncateAmount('12.999', 2)).toBe('12.99');
    expect(truncateAmount('500', 2)).toBe('500');
  });
});
