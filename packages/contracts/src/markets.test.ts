import { describe, expect, it } from 'vitest';
import { pairFromName, pairTabsOf } from './markets.js';

const tickers = { fiatTickers: ['USD', 'EUR'], stableTickers: ['USDT', 'USDC'] };

describe('pairTabsOf', () => {
  it.each([
    ['BTC', ['BTC']],
    ['ETH', ['ETH']],
    ['USD', ['USD', 'FIAT']],
    ['EUR', ['EUR', 'FIAT']],
    ['USDT', ['STABLE']],
    ['USDC', ['STABLE']],
    ['LTT', ['ALTS']],
    ['BNB', ['ALTS']],
  ])('puts pairs quoted in %s under %j', (money, tabs) => {
    expect(pairTabsOf(money, tickers)).toEqual(tabs);
  });
});

describe('pairFromName', () => {
  it('splits STOCK_MONEY and refuses anything else', () => {
    expect(pairFromName('BTC_USDT')).toEqual({ stock: 'BTC', money: 'USDT' });
    expect(pairFromName('btc_usdt')).toBeNull();
    expect(pairFromName('BTCUSDT')).toBeNull();
    expect(pairFromName('BTC_USDT_X')).toBeNull();
  });
});
