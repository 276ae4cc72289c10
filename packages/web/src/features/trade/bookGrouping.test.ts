import { describe, expect, it } from 'vitest';
import { groupingChoices, groupLevels } from './bookGrouping';

describe('order book grouping', () => {
  it('merges bids down and asks up to the step, best first', () => {
    const bids = groupLevels(
      [
        ['100.27', '1'],
        ['100.21', '2'],
        ['99.9', '0.5'],
      ],
      'bids',
      1,
    );
    expect(bids).toEqual([
      { price: '100.2', amount: '3', total: '300.6' },
      { price: '99.9', amount: '0.5', total: '49.95' },
    ]);
    const asks = groupLevels(
      [
        ['100.31', '1'],
        ['100.4', '1'],
        ['100.3', '2'],
      ],
      'asks',
      1,
    );
    expect(asks.map((level) => [level.price, level.amount])).toEqual([
      ['100.3', '2'],
      ['100.4', '2'],
    ]);
  });

  it('drops levels of zero', () => {
    expect(groupLevels([['5', '0']], 'bids', 2)).toEqual([]);
  });

  it('offers the market precision and coarser steps', () => {
    expect(groupingChoices(2)).toEqual([2, 1, 0]);
    expect(groupingChoices(8)).toEqual([8, 7, 6, 5]);
  });
});
