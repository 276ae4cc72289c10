import { z } from 'zod';

/**
 * The real-time socket at `/ws` (protocol-ws.md): a JSON-RPC request per text frame, one reply
 * per request, and pushes with `id: null`. Market names are `STOCK_MONEY`; decimals are plain.
 */

/** Error codes of protocol-ws.md §2. */
export const socketErrors = {
  invalidArgument: { code: 1, message: 'invalid argument' },
  internalError: { code: 2, message: 'internal error' },
  serviceUnavailable: { code: 3, message: 'service unavailable' },
  methodNotFound: { code: 4, message: 'method not found' },
  serviceTimeout: { code: 5, message: 'service timeout' },
  requireAuthentication: { code: 6, message: 'require authentication' },
  tokenInvalid: { code: 11, message: 'token invalid or expired' },
} as const;

/** Error 1's message when a subscribe would pass the per-connection subscription limit. */
export const tooManySubscriptionsMessage = 'too many subscriptions';

export interface SocketError {
  code: number;
  message: string;
}

/** A request frame; anything else closes the connection (protocol-ws.md §1.2). */
export const socketRequest = z.object({
  id: z.number().int().safe(),
  method: z.string().max(64),
  params: z.array(z.unknown()),
});
export type SocketRequest = z.infer<typeof socketRequest>;

export interface SocketReply {
  id: number;
  result: unknown;
  error: SocketError | null;
}

export interface SocketPush {
  id: null;
  method: string;
  params: unknown[];
}

/** Order events of `order.update` (protocol-ws.md §6.4 and §9.2). */
export const orderEvents = { put: 1, update: 2, finish: 3, triggered: 4 } as const;

/** Depth merge steps a subscription may use, besides "0" (exact prices). */
export const depthMergeSteps = [
  '0',
  '0.00000001',
  '0.0000001',
  '0.000001',
  '0.00001',
  '0.0001',
  '0.001',
  '0.01',
  '0.1',
  '1',
  '10',
  '100',
] as const;

/** Close codes the server uses. */
export const socketCloseCodes = {
  /** A frame that is not a request (protocol-ws.md §9.1). */
  unsupportedData: 1003,
  /** A frame over the size limit. */
  messageTooBig: 1009,
  /** Too many requests per second, or a consumer that does not read. */
  policyViolation: 1008,
  /** Idle for longer than the keep-alive. */
  goingAway: 1001,
  /** Too many connections from one address. */
  tryAgainLater: 1013,
} as const;
