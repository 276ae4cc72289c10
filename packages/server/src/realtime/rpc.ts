import {
  type SocketError,
  type SocketRequest,
  socketErrors,
  socketRequest,
} from '@lattice/contracts';

/** An expected failure of a socket method, answered as `{ error: { code, message } }`. */
export class RpcError extends Error {
  constructor(readonly error: SocketError) {
    super(error.message);
    this.name = 'RpcError';
  }
}

export function invalidArgument(message: string = socketErrors.invalidArgument.message): RpcError {
  return new RpcError({ code: socketErrors.invalidArgument.code, message });
}

/** A frame's request, or null when it is not one (the connection is then closed). */
export function parseRequest(text: string): SocketRequest | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = socketRequest.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** A push frame, encoded once for every subscriber that receives it. */
export function pushFrame(method: string, params: unknown[]): Buffer {
  return Buffer.from(JSON.stringify({ method, params, id: null }));
}
