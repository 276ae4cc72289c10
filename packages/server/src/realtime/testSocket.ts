import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';

interface Reply {
  id: number;
  result: unknown;
  error: { code: number; message: string } | null;
}

export interface Push {
  method: string;
  params: unknown[];
}

/** A socket client for tests: numbered calls, and every push kept in arrival order. */
export class TestSocket {
  readonly pushes: Push[] = [];
  closeCode: number | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: Reply) => void>();
  private readonly watchers = new Set<() => void>();

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Reply & Push;
      if (message.id === null) this.pushes.push({ method: message.method, params: message.params });
      else this.waiting.get(message.id)?.(message);
      for (const watcher of this.watchers) watcher();
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      for (const watcher of this.watchers) watcher();
    });
  }

  /** Connects to the app, which must be listening. */
  static async connect(app: FastifyInstance): Promise<TestSocket> {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new TestSocket(socket);
  }

  call(method: string, params: unknown[] = []): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, (reply) => {
        this.waiting.delete(id);
        resolve(reply);
      });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Calls and expects success; returns the result. */
  async ok(method: string, params: unknown[] = []): Promise<unknown> {
    const reply = await this.call(method, params);
    if (reply.error !== null) throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
    return reply.result;
  }

  /**
   * Resolves when `check` holds (checked after every frame), or fails after `timeoutMs`. The
   * wait is generous because a full test run loads both cores, and a 2 s wait for a push has
   * run out there. The failure names the pushes received, to tell a late push from a wrong one.
   */
  until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.watchers.delete(watcher);
        const received = this.pushes.map((push) => push.method).join(', ');
        reject(new Error(`condition not met in ${timeoutMs} ms; pushes received: ${received}`));
      }, timeoutMs);
      const watcher = () => {
        if (!check()) return;
        clearTimeout(timer);
        this.watchers.delete(watcher);
        resolve();
      };
      this.watchers.add(watcher);
    });
  }

  /** The pushes of one method, in order. */
  of(method: string): unknown[][] {
    return this.pushes.filter((push) => push.method === method).map((push) => push.params);
  }

  close(): void {
    this.socket.close();
  }
}

/** A local order book rebuilt from `depth.update` pushes as a client would. */
export class RebuiltBook {
  asks = new Map<string, string>();
  bids = new Map<string, string>();

  constructor(private readonly limit: number) {}

  apply(params: unknown[]): void {
    const [clean, data] = params as [boolean, { asks?: string[][]; bids?: string[][] }];
    if (clean) {
      this.asks.clear();
      this.bids.clear();
    }
    for (const [side, levels] of [
      [this.asks, data.asks],
      [this.bids, data.bids],
    ] as const) {
      for (const [price = '', amount = ''] of levels ?? []) {
        if (amount === '0') side.delete(price);
        else side.set(price, amount);
      }
    }
  }

  /** Best first, cut to the limit, like the HTTP depth. */
  view(): { asks: string[][]; bids: string[][] } {
    const sorted = (side: Map<string, string>, ascending: boolean) =>
      [...side.entries()]
        .sort(([a], [b]) => compareDecimals(a, b) * (ascending ? 1 : -1))
        .slice(0, this.limit);
    return { asks: sorted(this.asks, true), bids: sorted(this.bids, false) };
  }
}

/** Compares two non-negative plain decimals exactly. */
export function compareDecimals(a: string, b: string): number {
  const [aw = '', af = ''] = a.split('.');
  const [bw = '', bf = ''] = b.split('.');
  if (aw.length !== bw.length) return aw.length - bw.length;
  const width = Math.max(af.length, bf.length);
  const left = aw + af.padEnd(width, '0');
  const right = bw + bf.padEnd(width, '0');
  return left < right ? -1 : left > right ? 1 : 0;
}
