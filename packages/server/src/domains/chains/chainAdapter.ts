/**
 * What the exchange needs of a blockchain network. The simulated chain implements it for the
 * embedded set-up; a real network (an Ethereum-family node over JSON-RPC, ...) implements the
 * same interface, and nothing above it changes.
 */
export interface ChainAdapter {
  /** The network's code in the reference data (`bitcoin`, `ethereum`, ...). */
  readonly network: string;
  /** Whether deposits to a shared address are told apart by a memo. */
  readonly usesMemo: boolean;
  /** The deposit address number `index` of a user (and its memo on a memo network). */
  newAddress(userId: number, index: number): Promise<ChainAddress>;
  /** The height of the newest block. */
  blockHeight(): Promise<number>;
  /** Transfers into any address in the blocks after `fromHeight` up to `toHeight`. */
  incomingTransfers(fromHeight: number, toHeight: number): Promise<IncomingTransfer[]>;
  /**
   * Sends funds out of the exchange's wallet (withdrawals). Idempotent by `reference`: a
   * second send with a reference already sent answers the first transaction and sends
   * nothing, so a restart can finish an interrupted withdrawal without paying it twice.
   */
  send(request: OutgoingTransfer & { reference: string }): Promise<{ txHash: string }>;
  /** Blocks that include a transaction and follow it (0: not mined, or unknown). */
  confirmations(txHash: string): Promise<number>;
  /** Where a person can look a transaction up. */
  explorerLink(txHash: string): string;
}

export interface ChainAddress {
  address: string;
  /** Null on networks without memos. */
  memo: string | null;
}

export interface IncomingTransfer {
  txHash: string;
  /** The output (or log) index within the transaction: (network, txHash, output) is unique. */
  output: number;
  asset: string;
  address: string;
  memo: string | null;
  /** Minor units of the asset. */
  amount: bigint;
  blockHeight: number;
}

export interface OutgoingTransfer {
  asset: string;
  address: string;
  memo: string | null;
  /** Minor units of the asset. */
  amount: bigint;
}

/** Confirmations of a transfer in `blockHeight` when the newest block is `tip` (0: not mined). */
export function confirmationsOf(blockHeight: number, tip: number): number {
  return tip >= blockHeight ? tip - blockHeight + 1 : 0;
}
