import type { OrderJson, OwnTradeJson } from '@lattice/contracts';
import type { HistoryKind, HistoryRow } from './historyApi';

/** A column of a history table: its title's text key and the cell of a row. */
export interface HistoryColumn {
  key: string;
  title: string;
  cell: (row: HistoryRow) => string | number;
}

const order = (row: HistoryRow) => row as OrderJson;
const trade = (row: HistoryRow) => row as OwnTradeJson;
const sideKey = (side: number) => (side === 2 ? 'trade.buy' : 'trade.sell');
const kindKeys = ['trade.kinds.limit', 'trade.kinds.stopLimit', 'trade.kinds.oco'] as const;

/** The type label key of an order (SPEC.md §3): Limit, Market, Stop Limit or OCO. */
export function orderKindKey(row: OrderJson): string {
  if (row.type === 2) return 'trade.kinds.market';
  return kindKeys[row.algorithm] ?? 'trade.kinds.limit';
}

/** What an active order is doing: resting untouched, partly filled, or a stop not yet fired. */
export type ActiveStatus = 'open' | 'partial' | 'waiting';
export const activeStatuses: readonly ActiveStatus[] = ['open', 'partial', 'waiting'];

export function activeStatusOf(row: OrderJson): ActiveStatus {
  if (row.algorithm !== 0 && !row.triggered) return 'waiting';
  return /^0(\.0*)?$/.test(row.deal_stock) ? 'open' : 'partial';
}

const orderColumns = (time: 'ctime' | 'ftime'): HistoryColumn[] => [
  { key: 'time', title: 'trade.time', cell: (row) => order(row)[time] },
  { key: 'pair', title: 'trade.history.pair', cell: (row) => order(row).market },
  { key: 'type', title: 'trade.type', cell: (row) => orderKindKey(order(row)) },
  { key: 'side', title: 'trade.side', cell: (row) => sideKey(order(row).side) },
  { key: 'price', title: 'trade.price', cell: (row) => order(row).price },
  { key: 'amount', title: 'trade.amount', cell: (row) => order(row).amount },
  { key: 'filled', title: 'trade.filled', cell: (row) => order(row).deal_stock },
];

export const historyColumns: Record<HistoryKind, HistoryColumn[]> = {
  orders: [
    ...orderColumns('ftime'),
    { key: 'fee', title: 'trade.fee', cell: (row) => order(row).deal_fee },
  ],
  active: [
    ...orderColumns('ctime'),
    {
      key: 'status',
      title: 'trade.status',
      cell: (row) => `trade.statuses.${activeStatusOf(order(row))}`,
    },
  ],
  trades: [
    { key: 'time', title: 'trade.time', cell: (row) => trade(row).time },
    { key: 'pair', title: 'trade.history.pair', cell: (row) => trade(row).market },
    { key: 'side', title: 'trade.side', cell: (row) => sideKey(trade(row).side) },
    { key: 'price', title: 'trade.price', cell: (row) => trade(row).price },
    { key: 'amount', title: 'trade.amount', cell: (row) => trade(row).amount },
    { key: 'deal', title: 'trade.total', cell: (row) => trade(row).deal },
    { key: 'fee', title: 'trade.fee', cell: (row) => trade(row).fee },
  ],
};

/** Columns whose cell is a text key, shown translated. */
export const translatedColumns = new Set(['type', 'side', 'status']);
