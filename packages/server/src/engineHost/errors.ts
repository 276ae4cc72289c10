/** Why the host refuses a command before applying it; routes map these to HTTP answers. */
export class HostRefusal extends Error {
  constructor(
    readonly code: 'engine_busy' | 'engine_halted' | 'idempotency_key_reused',
    message: string,
    readonly status: 409 | 503,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'HostRefusal';
  }
}

/** The queue is full: nothing was applied, the client may retry after a short wait. */
export function busyRefusal(): HostRefusal {
  return new HostRefusal('engine_busy', 'The exchange is busy, please retry', 503, 1);
}

/** The host stopped accepting commands; `reason` says why (also logged). */
export function haltedRefusal(reason: string): HostRefusal {
  return new HostRefusal('engine_halted', `Trading is halted: ${reason}`, 503, 30);
}

/** The same idempotency key was used earlier with another request body. */
export function keyReusedRefusal(): HostRefusal {
  return new HostRefusal(
    'idempotency_key_reused',
    'This Idempotency-Key was already used with a different request',
    409,
  );
}
