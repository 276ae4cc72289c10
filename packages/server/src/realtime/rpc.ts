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

/**
 * A push as a complete WebSocket text frame (RFC 6455 §5.2, unmasked as servers send), encoded
 * once and written as is to every subscriber that receives it.
 */
export function pushFrame(method: string, params: unknown[]): Buffer {
  const payload = Buffer.from(JSON.stringify({ method, params, id: null }));
  const length = payload.length;
  let header: Buffer;
  if (length < 126) {
    header = Buffer.from([0x81, length]);
  } else if (length < 65_536) {
    header = Buffer.from([0x81, 126, length >> 8, length & 0xff]);
  } else {
    header = Buffer.alloc(10);
    header[0] = 0x81;
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}
