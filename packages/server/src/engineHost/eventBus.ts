/** A published batch of engine events, in commit order. */
export interface EventBus<E> {
  /** Delivers events that are already durable; never called before their batch committed. */
  publish(events: readonly E[]): void;
  /** Returns the function that removes the subscription. */
  subscribe(handler: (events: readonly E[]) => void): () => void;
}

/**
 * Delivers events to subscribers in this process, synchronously and in order. A NATS JetStream
 * or Redis Streams implementation of the same interface carries them to other processes.
 */
export class InProcessEventBus<E> implements EventBus<E> {
  private readonly handlers = new Set<(events: readonly E[]) => void>();

  constructor(private readonly onSubscriberError: (error: unknown) => void = () => {}) {}

  publish(events: readonly E[]): void {
    if (events.length === 0) return;
    for (const handler of this.handlers) {
      // NOTE: a failing subscriber must not stop delivery to the others, nor reach the sequencer:
      // the events are already durable and the replies already sent.
      try {
        handler(events);
      } catch (error) {
        this.onSubscriberError(error);
      }
    }
  }

  subscribe(handler: (events: readonly E[]) => void): () => void {
    // A wrapper gives each subscription its own identity, so one handler may subscribe twice.
    const wrapped = (events: readonly E[]) => handler(events);
    this.handlers.add(wrapped);
    return () => {
      this.handlers.delete(wrapped);
    };
  }
}
