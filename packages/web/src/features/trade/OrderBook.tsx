import type { MarketListItemJson } from '@lattice/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type BookLevel, groupingChoices, groupLevels } from './bookGrouping';
import styles from './trade.module.css';
import { depthQuery } from './tradeApi';

interface OrderBookProps {
  market: MarketListItemJson;
  lastPrice: string | undefined;
  onPickPrice: (price: string) => void;
}

/** Asks above, bids below, 50 levels each, grouped by a chosen price step; a click picks a price. */
export function OrderBook({ market, lastPrice, onPickPrice }: OrderBookProps) {
  const { t } = useTranslation();
  const choices = groupingChoices(market.price_precision);
  const [decimals, setDecimals] = useState(choices[0] ?? 8);
  const depth = useQuery(depthQuery(market.name)).data;
  const asks = groupLevels(depth?.asks ?? [], 'asks', decimals);
  const bids = groupLevels(depth?.bids ?? [], 'bids', decimals);
  const row = (level: BookLevel, side: 'buy' | 'sell') => (
    <tr
      key={level.price}
      className={styles.bookRow}
      data-testid={`book-${side}`}
      onClick={() => onPickPrice(level.price)}
    >
      <td className={styles[side]}>{level.price}</td>
      <td>{level.amount}</td>
      <td>{level.total}</td>
    </tr>
  );
  return (
    <section className={`${styles.panel} ${styles.book}`} aria-label={t('trade.book')}>
      <h2 className={styles.panelTitle}>
        {t('trade.book')}
        <select
          aria-label="precision"
          value={decimals}
          onChange={(event) => setDecimals(Number(event.target.value))}
        >
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice === 0 ? '1' : `0.${'0'.repeat(choice - 1)}1`}
            </option>
          ))}
        </select>
      </h2>
      <table className={styles.table}>
        <thead>
          <tr>
            <th>{t('trade.price')}</th>
            <th>{t('trade.amount')}</th>
            <th>{t('trade.total')}</th>
          </tr>
        </thead>
        <tbody>{[...asks].reverse().map((level) => row(level, 'sell'))}</tbody>
        <tbody>
          <tr>
            <td colSpan={3} className={styles.spread} data-testid="book-last">
              {lastPrice ?? '—'}
            </td>
          </tr>
        </tbody>
        <tbody>{bids.map((level) => row(level, 'buy'))}</tbody>
      </table>
    </section>
  );
}
