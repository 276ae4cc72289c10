import { describe, expect, it } from 'vitest';
import {
  amountOfShare,
  amountOfTotal,
  averagePriceOf,
  feeOf,
  numericInput,
  textOf,
  totalOf,
  totalWithFee,
  unitsOf,
} from './orderMath';

const units = (text: string) => {
  const value = unitsOf(text);
  if (value === null) throw new Error(`not a number: ${text}`);
  return value;
};

describe('numeric input', () => {
  it.each([
    ['1,5', '1.5'],
    ['0.123456789', '0.12345678'],
    ['12a3', '123'],
    ['1.2.3', '1.23'],
    [',5', '0.5'],
    ['-3', '3'],
    ['', ''],
  ])('%s becomes %s', (typed, kept) => {
    expect(numericInput(typed)).toBe(kept);
  });

  it('reads a trailing dot as the number before it', () => {
    expect(unitsOf('2.')).toBe(200_000_000n);
    expect(unitsOf('')).toBeNull();
    expect(unitsOf('.')).toBeNull();
  });
});

describe('totals and fees', () => {
  it('multiplies exactly where floats would not', () => {
    expect(textOf(totalOf(units('0.1'), units('0.2')))).toBe('0.02');
    expect(textOf(totalOf(units('65000.5'), units('0.00012345')))).toBe('8.02431172');
  });

  it('divides a total back into an amount, cut to 8 decimals', () => {
    expect(textOf(amountOfTotal(units('100'), units('3')))).toBe('33.33333333');
    expect(amountOfTotal(units('100'), 0n)).toBe(0n);
  });

  it('rounds the fee up, in the exchange’s favour', () => {
    expect(textOf(feeOf(units('100'), units('0.002')))).toBe('0.2');
    expect(feeOf(1n, units('0.002'))).toBe(1n);
    expect(feeOf(0n, units('0.002'))).toBe(0n);
  });

  it('adds the fee for a buy and takes it off a sell', () => {
    const total = units('100');
    const fee = units('0.2');
    expect(textOf(totalWithFee('buy', total, fee))).toBe('100.2');
    expect(textOf(totalWithFee('sell', total, fee))).toBe('99.8');
  });

  it('sizes a percentage of the balance by side', () => {
    expect(textOf(amountOfShare('sell', 25n, units('2'), units('50000')))).toBe('0.5');
    expect(textOf(amountOfShare('buy', 50n, units('1000'), units('50000')))).toBe('0.01');
  });
});

describe('average price of a finished order', () => {
  it.each([
    // deal_money, deal_stock, average
    ['2.993', '0.0001', '29930'],
    ['10', '3', '3.33333333'],
    ['1.5', '0.50000000', '3'],
    // More decimals than a form keeps: put on one scale, then cut to 8.
    ['0.000000000000000003', '0.000000000000000002', '1.5'],
  ])('%s ÷ %s = %s, cut, never a float', (money, stock, average) => {
    expect(averagePriceOf(money, stock)).toBe(average);
  });

  it('is null when nothing traded', () => {
    expect(averagePriceOf('0', '0')).toBeNull();
    expect(averagePriceOf('0', '0.00000000')).toBeNull();
  });
});
