/**
 * The app's one socket to the exchange (protocol-ws.md): requests by id, pushes by method,
 * and the connection rules of SPEC.md §4 and §9 — keep-alive every 30 s, reconnect after a
 * close (1 s plus 100 ms per failed sign-in, at most 10 s), close after 60 s hidden and
 * reopen when visible, sign-in retried on errors 2 and 5 at most 3 times.
 */

type Push = (params: unknown[]) => void;
interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: SocketError) => void;
}

export class SocketError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const keepAliveMs = 30_000;
const hiddenCloseMs = 60_000;
const reconnectBaseMs = 1000;
const reconnectPerFailureMs = 100;
const reconnectMaxMs = 10_000;
const authAttemptsMax = 3;
const retriedAuthCodes = [2, 5];

export class TradeSocket {
  private socket: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<Push>>();
  /** Subscriptions by method, sent again after every reconnect. */
  private readonly subscriptions = new Map<string, unknown[]>();
  private token: string | null = null;
  private authFailures = 0;
  private paused = false;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private hiddenTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly url: string,
    private readonly onAuthGaveUp: () => void = () => undefined,
  ) {
    document.addEventListener('visibilitychange', this.handleVisibility);
  }

  /** Signs the socket in (or out, with null); private subscriptions need it. */
  setToken(token: string | null): void {
    if (token === this.token) return;
    this.token = token;
    this.authFailures = 0;
    this.restart();
  }

  on(method: string, listener: Push): () => void {
    const set = this.listeners.get(method) ?? new Set();
    set.add(listener);
    this.listeners.set(method, set);
    return () => set.delete(listener);
  }

  /** Subscribes now and after every reconnect; `null` params unsubscribe. */
  subscribe(channel: string, params: unknown[] | null): void {
    if (params === null) {
      this.subscriptions.delete(channel);
      void this.request(`${channel}.unsubscribe`, []).catch(() => undefined);
      return;
    }
    this.subscriptions.set(channel, params);
    void this.request(`${channel}.subscribe`, params).catch(() => undefined);
  }

  request(method: string, params: unknown[]): Promise<unknown> {
    this.open();
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new SocketError(402, 'WebSocket for trading server is closed'));
    }
    const id = this.nextId++;
    socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  close(): void {
    this.paused = true;
    document.removeEventListener('visibilitychange', this.handleVisibility);
    this.socket?.close();
  }

  private open(): void {
    if (this.paused || this.socket) return;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => void this.handleOpen();
    socket.onmessage = (event) => this.handleMessage(String(event.data));
    socket.onclose = () => this.handleClose(socket);
  }

  private restart(): void {
    this.socket?.close();
    this.socket = null;
    this.open();
  }

  private async handleOpen(): Promise<void> {
    clearInterval(this.keepAlive);
    this.keepAlive = setInterval(
      () => void this.request('server.ping', []).catch(() => undefined),
      keepAliveMs,
    );
    if (this.token && !(await this.signIn())) return;
    for (const [channel, params] of this.subscriptions) {
      void this.request(`${channel}.subscribe`, params).catch(() => undefined);
    }
  }

  private async signIn(): Promise<boolean> {
    try {
      await this.request('server.auth', [this.token, 'web']);
      this.authFailures = 0;
      return true;
    } catch (error) {
      const code = error instanceof SocketError ? error.code : 0;
      this.authFailures++;
      if (retriedAuthCodes.includes(code) && this.authFailures < authAttemptsMax) {
        this.socket?.close();
      } else {
        this.paused = true;
        this.socket?.close();
        this.onAuthGaveUp();
      }
      return false;
    }
  }

  private handleMessage(text: string): void {
    const message = JSON.parse(text) as {
      id: number | null;
      method?: string;
      params?: unknown[];
      result?: unknown;
      error?: { code: number; message: string } | null;
    };
    if (message.id === null || message.id === undefined) {
      for (const listener of this.listeners.get(message.method ?? '') ?? []) {
        listener(message.params ?? []);
      }
      return;
    }
    const pending = this.pending.get(message.id);
    this.pending.delete(message.id);
    if (message.error) pending?.reject(new SocketError(message.error.code, message.error.message));
    else pending?.resolve(message.result);
  }

  private handleClose(socket: WebSocket): void {
    if (this.socket !== socket) return;
    this.socket = null;
    clearInterval(this.keepAlive);
    for (const pending of this.pending.values()) {
      pending.reject(new SocketError(402, 'WebSocket for trading server is closed'));
    }
    this.pending.clear();
    if (this.paused) return;
    const delay = Math.min(
      reconnectBaseMs + this.authFailures * reconnectPerFailureMs,
      reconnectMaxMs,
    );
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.open(), delay);
  }

  private readonly handleVisibility = () => {
    clearTimeout(this.hiddenTimer);
    if (document.visibilityState === 'hidden') {
      this.hiddenTimer = setTimeout(() => {
        this.paused = true;
        this.socket?.close();
      }, hiddenCloseMs);
      return;
    }
    if (this.paused) {
      this.paused = false;
      this.open();
    }
  };
}
