// The SQL of the SQLite batch commit: one statement per table, each prepared once.

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
  const values = columns.map((column) => `@${column}`).join(', ');
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

/** The statements a batch commit runs, by table. */
export interface BatchStatements {
  readonly journal: string;
  readonly order: string;
  readonly trade: string;
  readonly balance: string;
  readonly systemBalance: string;
  readonly history: string;
  readonly key: string;
}

export const batchStatements: BatchStatements = {
  journal: insertSql('engine_journal', journalColumns),
  order: upsertSql('orders', orderColumns, ['id'], orderChanging),
  trade: insertSql('trades', tradeColumns),
  balance: upsertSql(
    'balances',
    ['user_id', ...balanceValues],
    ['user_id', 'asset', 'account'],
    balanceChanging,
  ),
  systemBalance: upsertSql(
    'system_balances',
    ['owner', ...balanceValues],
    ['owner', 'asset', 'account'],
    balanceChanging,
  ),
  history: insertSql('balance_history', historyColumns),
  key: `${insertSql('idempotency_keys', keyColumns)} on conflict do nothing`,
};
