import { type KlineRow, klineIntervals } from '@lattice/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CandlestickSeries,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import { withKlineRows } from './liveCache';
import styles from './trade.module.css';
import { tradeSocket } from './useLiveMarket';

const intervalLabels: Record<number, string> = {
  60: '1m',
  300: '5m',
  900: '15m',
  1800: '30m',
  3600: '1h',
  14400: '4h',
  86400: '1d',
  604800: '1w',
};
const candlesShown = 300;

function klineQuery(pair: string, interval: number) {
  return {
    queryKey: ['trade', 'kline', pair, interval],
    queryFn: () => {
      const end = Math.floor(Date.now() / 1000);
      return api.get<KlineRow[]>(`/v2/kline/${pair}`, {
        query: { interval, start: end - interval * candlesShown, end },
        on404: 'throw',
      });
    },
    staleTime: 0,
  };
}

/** The newest candles come over the socket (`kline.update`), merged into the history by time. */
function useLiveCandles(pair: string, interval: number): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const socket = tradeSocket();
    const key = klineQuery(pair, interval).queryKey;
    const stops = [
      socket.on('kline.update', (pushed) => {
        const fresh = (pushed as KlineRow[]).filter((row) => row[7] === pair);
        if (fresh.length > 0) {
          queryClient.setQueryData<KlineRow[]>(key, (current) => withKlineRows(current, fresh));
        }
      }),
      socket.onReady(() => void queryClient.invalidateQueries({ queryKey: key })),
    ];
    socket.subscribe('kline', [pair, interval]);
    return () => {
      for (const stop of stops) stop();
      socket.subscribe('kline', null);
    };
  }, [pair, interval, queryClient]);
}

function themeColours(element: HTMLElement) {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: read('--text-muted', '#5a6678'),
    border: read('--border', '#dbe1e8'),
    green: read('--green', '#12935b'),
    red: read('--red', '#d93843'),
  };
}

/**
 * Candles and volume of the pair. Loaded on its own so the chart library stays out of the
 * trade page's first download.
 */
export default function CandleChart({ pair }: { pair: string }) {
  const [interval, setChosenInterval] = useState<number>(900);
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const candles = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const volume = useRef<ISeriesApi<'Histogram'> | null>(null);
  const rows = useQuery(klineQuery(pair, interval)).data;
  useLiveCandles(pair, interval);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const colours = themeColours(element);
    const created = createChart(element, {
      autoSize: true,
      layout: { background: { color: 'transparent' }, textColor: colours.text },
      grid: { vertLines: { color: colours.border }, horzLines: { color: colours.border } },
      timeScale: { timeVisible: true },
    });
    candles.current = created.addSeries(CandlestickSeries, {
      upColor: colours.green,
      downColor: colours.red,
      wickUpColor: colours.green,
      wickDownColor: colours.red,
      borderVisible: false,
    });
    volume.current = created.addSeries(HistogramSeries, { priceScaleId: 'volume' });
    created.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    chart.current = created;
    return () => created.remove();
  }, []);

  useEffect(() => {
    if (!rows || !candles.current || !volume.current) return;
    // NOTE: the chart draws floats; these numbers are only pixels, never an amount kept.
    candles.current.setData(
      rows.map(([time, open, close, high, low]) => ({
        time: time as UTCTimestamp,
        open: Number(open),
        close: Number(close),
        high: Number(high),
        low: Number(low),
      })),
    );
    const colours = themeColours(box.current ?? document.body);
    volume.current.setData(
      rows.map(([time, open, close, , , stock]) => ({
        time: time as UTCTimestamp,
        value: Number(stock),
        color: Number(close) >= Number(open) ? colours.green : colours.red,
      })),
    );
  }, [rows]);

  return (
    <section className={`${styles.panel} ${styles.chart}`} aria-label="chart">
      <div className={styles.tabs}>
        {klineIntervals.map((choice) => (
          <button
            key={choice}
            type="button"
            className={`${styles.tab} ${choice === interval ? styles.tabActive : ''}`}
            onClick={() => setChosenInterval(choice)}
          >
            {intervalLabels[choice]}
          </button>
        ))}
      </div>
      <div ref={box} className={styles.chartCanvas} />
    </section>
  );
}
