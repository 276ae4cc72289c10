import type { HttpAnswer, HttpSession } from './httpSession.js';

/** A command whose answer was definitive: acknowledged (2xx) or refused (4xx). */
export interface SentCommand {
  readonly kind: 'order' | 'cancel' | 'transfer';
  readonly userId: number;
  readonly key: string;
  readonly acknowledged: boolean;
  readonly status: number;
  readonly body: unknown;
  /** The order id of an acknowledged placement or cancel. */
  readonly orderId?: number;
  /** True when at least one attempt ended without an answer (the server died). */
  readonly retried: boolean;
}

/** Where the server is now: a promise that waits while it is down. */
export class ServerGate {
  private current!: Promise<string>;
  private open!: (url: string) => void;

  constructor() {
    this.close();
  }

  url(): Promise<string> {
    return this.current;
  }

  close(): void {
    this.current = new Promise((resolve) => {
      this.open = resolve;
    });
  }

  reopen(url: string): void {
    this.open(url);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One trading client: places limit orders, cancels its own, moves USDT between main and trade,
 * each with its own Idempotency-Key. A request cut off by a crash is sent again with the same
 * key once the server is back, until it gets a definitive answer.
 */
export class CrashClient {
  readonly sent: SentCommand[] = [];
  private readonly openOrders: number[] = [];
  private counter = 0;
  private stopping = false;

  constructor(
    private readonly session: HttpSession,
    readonly userId: number,
    private readonly name: string,
    private readonly gate: ServerGate,
    private readonly random: () => number,
  ) {}

  async run(): Promise<void> {
    while (!this.stopping) {
      const roll = this.random();
      if (roll < 0.55) await this.placeOrder();
      else if (roll < 0.8) await this.cancelOrder();
      else await this.transfer();
    }
  }

  stop(): void {
    this.stopping = true;
  }

  private async placeOrder(): Promise<void> {
    const cents = 3_000_000 + Math.floor(this.random() * 201) - 100;
    // One order in twenty is off the tick: refused before the engine.
    const offTick = this.random() < 0.05 ? '1' : '';
    const body = {
      pair: 'BTC_USDT',
      direction: this.random() < 0.5 ? 'buy' : 'sell',
      price: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}${offTick}`,
      amount: `0.00${1 + Math.floor(this.random() * 9)}`,
    };
    const sent = await this.send('order', 'POST', '/api/v2/order', body);
    if (sent.acknowledged && sent.orderId !== undefined) this.openOrders.push(sent.orderId);
  }

  private async cancelOrder(): Promise<void> {
    if (this.openOrders.length === 0) return this.placeOrder();
    const index = Math.floor(this.random() * this.openOrders.length);
    const [orderId] = this.openOrders.splice(index, 1);
    await this.send('cancel', 'DELETE', `/api/v2/order/${orderId}`, undefined);
  }

  private async transfer(): Promise<void> {
    // One transfer in ten asks for far more than there is: the engine refuses it.
    const tooMuch = this.random() < 0.1;
    const toMain = this.random() < 0.5;
    const body = {
      ticker: 'USDT',
      amount: tooMuch ? '999999999' : `${1 + Math.floor(this.random() * 5)}.25`,
      from: toMain ? 'trade' : 'main',
      to: toMain ? 'main' : 'trade',
    };
    await this.send('transfer', 'POST', '/api/v2/profile/transfer', body);
  }

  private async send(
    kind: SentCommand['kind'],
    method: string,
    path: string,
    body: unknown,
  ): Promise<SentCommand> {
    const key = `${this.name}-${kind}-${++this.counter}`;
    let retried = false;
    let answer: HttpAnswer | null = null;
    while (answer === null) {
      this.session.baseUrl = await this.gate.url();
      try {
        const attempt = await this.session.request(method, path, body, { 'idempotency-key': key });
        if (attempt.status >= 500) {
          retried = true;
          await sleep(20);
        } else {
          answer = attempt;
        }
      } catch {
        retried = true;
        this.session.resetConnections();
        await sleep(20);
      }
    }
    const order = (answer.body as { order?: { id?: number } } | null)?.order;
    const sent: SentCommand = {
      kind,
      userId: this.userId,
      key,
      acknowledged: answer.status < 300,
      status: answer.status,
      body: answer.body,
      ...(order?.id === undefined ? {} : { orderId: order.id }),
      retried,
    };
    this.sent.push(sent);
    return sent;
  }
}
