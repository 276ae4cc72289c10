import type { Generated } from 'kysely';

/**
 * The engine host's tables (migrations 0004_engine_host, 0011_engine_snapshot_gzip). Amount
 * columns are integer minor units as strings (see `db/amount.ts`); times are Unix milliseconds.
 * Only the engine host writes them.
 */
export interface EngineHostTables {
  engine_journal: EngineJournalTable;
  engine_snapshots: EngineSnapshotsTable;
  idempotency_keys: IdempotencyKeysTable;
  balances: BalancesTable;
  system_balances: SystemBalancesTable;
  balance_history: BalanceHistoryTable;
  orders: OrdersTable;
  trades: TradesTable;
}

/** Every accepted command, in the order applied: the source of truth. */
export interface EngineJournalTable {
  /** 1, 2, 3, ... without gaps. */
  seq: number;
  time: number;
  type: string;
  /** The command as JSON (`commandToJson`). */
  command: string;
  /** The engine's last event sequence number after applying it, checked on replay. */
  event_seq_end: number;
}

export interface EngineSnapshotsTable {
  /** The last journal entry the snapshot includes. */
  journal_seq: number;
  event_seq: number;
  state_hash: string;
  /** `EngineSnapshot` as JSON; empty when the JSON is in `data_gzip` instead. */
  data: string;
  /**
   * The JSON gzip-compressed (snapshots written since migration 0011), or null when it is in
   * `data`. The state hash is that of the JSON text either way.
   */
  data_gzip: Buffer | null;
  created_at: number;
}

export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  fingerprint: string;
  /** The first reply, as tagged JSON. */
  reply: string;
  created_at: number;
}

export interface BalancesTable {
  user_id: number;
  asset: string;
  /** `main`, `trade` or `margin`. */
  account: string;
  available: string;
  frozen: string;
  updated_at: number;
}

/** Balances of the exchange's own accounts: `fees`, `rounding`, `external`. */
export interface SystemBalancesTable {
  owner: string;
  asset: string;
  account: string;
  available: string;
  frozen: string;
  updated_at: number;
}

/** One row per movement of a user's balance. */
export interface BalanceHistoryTable {
  id: Generated<number>;
  event_seq: number;
  time: number;
  user_id: number;
  asset: string;
  account: string;
  business: string;
  business_id: string | null;
  order_id: number;
  deal_id: number;
  available_delta: string;
  frozen_delta: string;
  available: string;
  frozen: string;
}

/** The order object of API.md, open (`ftime` 0) and finished. */
export interface OrdersTable {
  id: number;
  user_id: number;
  market: string;
  platform: string;
  algorithm: number;
  account: number;
  side: number;
  type: number;
  time_in_force: string;
  amount: string;
  total: string;
  price: string;
  stop_price: string;
  limit_price: string;
  left: string;
  deal_stock: string;
  deal_money: string;
  deal_fee: string;
  deal_fee_ltt: string;
  triggered: number;
  oco_id: number;
  ctime: number;
  mtime: number;
  ftime: number;
  finish_reason: number | null;
}

/** Deals, with both sides and their fees. */
export interface TradesTable {
  id: number;
  time: number;
  market: string;
  price: string;
  amount: string;
  total: string;
  taker_side: number;
  maker_order_id: number;
  taker_order_id: number;
  maker_user_id: number;
  taker_user_id: number;
  maker_fee: string;
  maker_fee_asset: string;
  taker_fee: string;
  taker_fee_asset: string;
}
