// The SQL of the SQLite batch commit: one statement per table, each prepared once, and the
// batch's rows as arrays in the order of their statement's parameters.
import type {
  BalanceHistoryTable,
  BalancesTable,
  EngineJournalTable,
  OrdersTable,
  SystemBalancesTable,
  TradesTable,
} from '../db/tables/engineHost.js';
import type { BatchRecord } from './hostStore.js';

const journalColumns = ['seq', 'time', 'type', 'command', 'event_seq_end'];
const orderColumns = [
  'id',
  'user_id',
  'market',
  'platform',
  'algorithm',
  'account',
  'side',
  'type',
  'time_in_force',
  'amount',
  'total',
  'price',
  'stop_price',
  'limit_price',
  'left',
  'deal_stock',
  'deal_money',
  'deal_fee',
  'deal_fee_ltt',
  'triggered',
  'oco_id',
  'ctime',
  'mtime',
  'ftime',
  'finish_reason',
];
// What a later event of the same order can change.
const orderChanging = [
  'left',
  'deal_stock',
  'deal_money',
  'deal_fee',
  'deal_fee_ltt',
  'triggered',
  'oco_id',
  'mtime',
  'ftime',
  'finish_reason',
];
const tradeColumns = [
  'id',
  'time',
  'market',
  'price',
  'amount',
  'total',
  'taker_side',
  'maker_order_id',
  'taker_order_id',
  'maker_user_id',
  'taker_user_id',
  'maker_fee',
  'maker_fee_asset',
  'taker_fee',
  'taker_fee_asset',
];
const historyColumns = [
  'event_seq',
  'time',
  'user_id',
  'asset',
  'account',
  'business',
  'business_id',
  'order_id',
  'deal_id',
  'available_delta',
  'frozen_delta',
  'available',
  'frozen',
];
const balanceValues = ['asset', 'account', 'available', 'frozen', 'updated_at'];
const balanceChanging = ['available', 'frozen', 'updated_at'];
const keyColumns = ['user_id', 'key', 'fingerprint', 'reply', 'created_at'];

function insertSql(table: string, columns: readonly string[]): string {
  const names = columns.map((column) => `"${column}"`).join(', ');
  const values = columns.map(() => '?').join(', ');
  return `insert into "${table}" (${names}) values (${values})`;
}

function upsertSql(
  table: string,
  columns: readonly string[],
  conflict: readonly string[],
  changing: readonly string[],
): string {
  const set = changing.map((column) => `"${column}" = excluded."${column}"`).join(', ');
  const target = conflict.map((column) => `"${column}"`).join(', ');
  return `${insertSql(table, columns)} on conflict (${target}) do update set ${set}`;
}

/** The statements a batch commit runs, by table; their parameters are positional. */
export interface BatchStatements {
  readonly journal: string;
  readonly order: string;
  readonly trade: string;
  readonly balance: string;
  readonly systemBalance: string;
  readonly history: string;
  readonly key: string;
}

const balanceColumns = ['user_id', ...balanceValues];
const systemBalanceColumns = ['owner', ...balanceValues];

export const batchStatements: BatchStatements = {
  journal: insertSql('engine_journal', journalColumns),
  order: upsertSql('orders', orderColumns, ['id'], orderChanging),
  trade: insertSql('trades', tradeColumns),
  balance: upsertSql('balances', balanceColumns, ['user_id', 'asset', 'account'], balanceChanging),
  systemBalance: upsertSql(
    'system_balances',
    systemBalanceColumns,
    ['owner', 'asset', 'account'],
    balanceChanging,
  ),
  history: insertSql('balance_history', historyColumns),
  key: `${insertSql('idempotency_keys', keyColumns)} on conflict do nothing`,
};

type Row = readonly unknown[];

/** A batch's rows by statement, each row its statement's parameters in order. */
export interface PositionalBatch {
  readonly journal: Row[];
  readonly order: Row[];
  readonly trade: Row[];
  readonly balance: Row[];
  readonly systemBalance: Row[];
  readonly history: Row[];
  readonly key: Row[];
}

// NOTE: positional rather than named parameters: better-sqlite3 binds an array of values in
// about two thirds of the time it takes to look up named ones in an object (an orders row: 4.6-5.0
// against 6.2-11.1 us), and a batch of arrays is half the JSON of a batch of objects, so it is
// written and read in about half the time on either side of the worker boundary.
// Each table's row is listed by a function of its own, in the order of its columns above (a test
// holds them to it): reading a row's fields by name from a list of column names was a keyed
// lookup per value, about ten times the time of these fixed property reads.

/** A row's values in the order of `journalColumns`. */
function journalParameters(row: EngineJournalTable): Row {
  return [row.seq, row.time, row.type, row.command, row.event_seq_end];
}

/** A row's values in the order of `orderColumns`. */
function orderParameters(row: OrdersTable): Row {
  return [
    row.id,
    row.user_id,
    row.market,
    row.platform,
    row.algorithm,
    row.account,
    row.side,
    row.type,
    row.time_in_force,
    row.amount,
    row.total,
    row.price,
    row.stop_price,
    row.limit_price,
    row.left,
    row.deal_stock,
    row.deal_money,
    row.deal_fee,
    row.deal_fee_ltt,
    row.triggered,
    row.oco_id,
    row.ctime,
    row.mtime,
    row.ftime,
    row.finish_reason,
  ];
}

/** A row's values in the order of `tradeColumns`. */
function tradeParameters(row: TradesTable): Row {
  return [
    row.id,
    row.time,
    row.market,
    row.price,
    row.amount,
    row.total,
    row.taker_side,
    row.maker_order_id,
    row.taker_order_id,
    row.maker_user_id,
    row.taker_user_id,
    row.maker_fee,
    row.maker_fee_asset,
    row.taker_fee,
    row.taker_fee_asset,
  ];
}

/** A row's values in the order of `balanceColumns`. */
function balanceParameters(row: BalancesTable): Row {
  return [row.user_id, row.asset, row.account, row.available, row.frozen, row.updated_at];
}

/** A row's values in the order of `systemBalanceColumns`. */
function systemBalanceParameters(row: SystemBalancesTable): Row {
  return [row.owner, row.asset, row.account, row.available, row.frozen, row.updated_at];
}

/** A row's values in the order of `historyColumns`. */
function historyParameters(row: Omit<BalanceHistoryTable, 'id'>): Row {
  return [
    row.event_seq,
    row.time,
    row.user_id,
    row.asset,
    row.account,
    row.business,
    row.business_id,
    row.order_id,
    row.deal_id,
    row.available_delta,
    row.frozen_delta,
    row.available,
    row.frozen,
  ];
}

/** The batch's rows as the statements of `batchStatements` take them. */
export function positionalBatch(batch: BatchRecord): PositionalBatch {
  const rows = batch.projections;
  return {
    journal: batch.journal.map(journalParameters),
    order: rows.orders.map(orderParameters),
    trade: rows.trades.map(tradeParameters),
    balance: rows.balances.map(balanceParameters),
    systemBalance: rows.systemBalances.map(systemBalanceParameters),
    history: rows.history.map(historyParameters),
    // In the order of `keyColumns`.
    key: batch.idempotency.map((record) => [
      record.userId,
      record.key,
      record.fingerprint,
      record.reply,
      batch.time,
    ]),
  };
}

/** Each statement's columns, in the order of its parameters (for the test of the above). */
export const batchColumns = {
  journal: journalColumns,
  order: orderColumns,
  trade: tradeColumns,
  balance: balanceColumns,
  systemBalance: systemBalanceColumns,
  history: historyColumns,
  key: keyColumns,
} as const;
