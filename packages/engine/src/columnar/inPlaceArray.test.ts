import { describe, expect, it } from 'vitest';
import { IN_PLACE_FROM, InPlaceArray } from './inPlaceArray.js';

describe('InPlaceArray', () => {
  it('grows by copies while small, keeping its cells and zeroing the new ones', () => {
    const cells = new InPlaceArray(Int32Array, 4);
    cells.array.set([1, -2, 3, -4]);
    const before = cells.array;
    const after = cells.grow(10);
    expect(cells.inPlace).toBe(false);
    expect(after).toBe(cells.array);
    expect(after.buffer).not.toBe(before.buffer);
    expect([...after]).toEqual([1, -2, 3, -4, 0, 0, 0, 0, 0, 0]);
  });

  it('moves into a memory once it reaches IN_PLACE_FROM bytes, then grows where it is', () => {
    const cells = new InPlaceArray(Float64Array, 1000);
    for (let i = 0; i < 1000; i++) cells.array[i] = i + 0.5;
    const length = IN_PLACE_FROM / Float64Array.BYTES_PER_ELEMENT;
    const moved = cells.grow(length);
    expect(cells.inPlace).toBe(true);
    expect(moved.length).toBe(length);
    expect(moved[999]).toBe(999.5);
    expect(moved[1000]).toBe(0);
    moved[length - 1] = -7;

    const grown = cells.grow(length * 4 + 3);
    expect(grown.length).toBe(length * 4 + 3);
    expect(grown[999]).toBe(999.5);
    expect(grown[length - 1]).toBe(-7);
    expect(grown[length * 4 + 2]).toBe(0);
    // In place: the array from before the growth still shows the same cells.
    grown[5] = 42;
    expect(moved[5]).toBe(42);
  });

  it('holds bytes as well: a Uint8Array moves at IN_PLACE_FROM of them and grows in place', () => {
    const cells = new InPlaceArray(Uint8Array, 16);
    cells.array[15] = 255;
    const moved = cells.grow(IN_PLACE_FROM);
    expect(cells.inPlace).toBe(true);
    expect(moved[15]).toBe(255);
    const grown = cells.grow(IN_PLACE_FROM * 2);
    expect(grown.length).toBe(IN_PLACE_FROM * 2);
    grown[3] = 7;
    expect(moved[3]).toBe(7);
    expect(grown[15]).toBe(255);
  });

  it('is made in a memory when as large as IN_PLACE_FROM from the start, all zero', () => {
    const length = IN_PLACE_FROM / Float64Array.BYTES_PER_ELEMENT;
    const cells = new InPlaceArray(Float64Array, length);
    expect(cells.inPlace).toBe(true);
    expect(cells.array.length).toBe(length);
    expect(cells.array.every((v) => v === 0)).toBe(true);
    cells.array[length - 1] = 3;
    const grown = cells.grow(length * 2);
    expect([grown[length - 1], grown[length], grown.length]).toEqual([3, 0, length * 2]);
    // One byte short of it, an ordinary array.
    expect(new InPlaceArray(Uint8Array, IN_PLACE_FROM - 1).inPlace).toBe(false);
  });

  it('keeps its length when grown to a length within the pages it has', () => {
    const cells = new InPlaceArray(Int32Array, 1, 0);
    const first = cells.grow(3);
    first[2] = 9;
    const second = cells.grow(5);
    expect(cells.inPlace).toBe(true);
    expect(second.length).toBe(5);
    expect(second[2]).toBe(9);
  });
});
