/**
 * The app's one socket to the exchange (protocol-ws.md): requests by id, pushes by method,
 * and the connection rules of SPEC.md §4, §8 and §9 — keep-alive every 30 s, reconnect after a
 * close (1 s plus 100 ms per failed sign-in, at most 10 s), close after 60 s hidden and
 * reopen when visible, sign-in retried on errors 2 and 5, given up after 3 failures.
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

export const socketTimings = {
  keepAliveMs: 30_000,
  hiddenCloseMs: 60_000,
  reconnectBaseMs: 1000,
  reconnectPerFailureMs: 100,
  reconnectMaxMs: 10_000,
} as const;
/** Sign-in attempts before the socket gives up (SPEC.md §8). */
export const authAttemptsMax = 3;
/** The transient sign-in errors: internal error and service timeout (protocol-ws.md §2). */
const retriedAuthCodes = [2, 5];
/** Channels that need a signed-in socket; the others are public. */
const privateChannels = new Set(['order', 'asset', 'asset_margin']);
const closedMessage = 'WebSocket for trading server is closed';

export interface TradeSocketEvents {
  /** Sign-in failed with a transient error 3 times: the socket is closed (SPEC.md §8). */
  onAuthGaveUp?: () => void;
  /** Subscriptions were (re)sent: pushes missed while closed must be read again. */
  onReady?: () => void;
}

export class TradeSocket {
  private socket: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<Push>>();
  private readonly readyListeners = new Set<() => void>();
  /** Subscriptions by channel, sent again after every reconnect. */
  private readonly subscriptions = new Map<string, unknown[]>();
  private token: string | null = null;
  private authFailures = 0;
  /** Signed in (when there is a token) and subscribed: new subscriptions go out at once. */
  private ready = false;
  /** Why the socket stays closed: hidden for a minute, sign-in given up, or closed for good. */
  private hiddenClosed = false;
  private gaveUp = false;
  private disposed = false;
  /** After a token the server refused outright, the public channels still run. */
  private keepPublic = false;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private hiddenTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly url: string,
    private readonly events: TradeSocketEvents = {},
  ) {
    document.addEventListener('visibilitychange', this.handleVisibility);
  }

  /** Signs the socket in (or out, with null); private subscriptions need it. */
  setToken(token: string | null): void {
    if (token === this.token) return;
    this.token = token;
    this.authFailures = 0;
    this.gaveUp = false;
    this.restart();
  }

  on(method: string, listener: Push): () => void {
    const set = this.listeners.get(method) ?? new Set();
    set.add(listener);
    this.listeners.set(method, set);
    return () => set.delete(listener);
  }

  /** Called each time the subscriptions have been sent on a new connection. */
  onReady(listener: () => void): () => void {
    this.readyListeners.add(listener);
    return () => this.readyListeners.delete(listener);
  }

  /** Subscribes now and after every reconnect; `null` params unsubscribe. */
  subscribe(channel: string, params: unknown[] | null): void {
    if (params === null) {
      if (!this.subscriptions.delete(channel)) return;
      if (this.ready) void this.request(`${channel}.unsubscribe`, []).catch(() => undefined);
      return;
    }
    this.subscriptions.set(channel, params);
    this.open();
    if (this.ready) this.sendSubscription(channel, params);
  }

  request(method: string, params: unknown[]): Promise<unknown> {
    this.open();
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new SocketError(402, closedMessage));
    }
    const id = this.nextId++;
    socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  /** Closes for good (the app is going away). */
  close(): void {
    this.disposed = true;
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.hiddenTimer);
    document.removeEventListener('visibilitychange', this.handleVisibility);
    this.drop();
  }

  private get stopped(): boolean {
    return this.disposed || this.hiddenClosed || this.gaveUp;
  }

  private open(): void {
    if (this.stopped || this.socket) return;
    clearTimeout(this.reconnectTimer);
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => void this.handleOpen(socket);
    socket.onmessage = (event) => this.handleMessage(String(event.data));
    socket.onclose = () => this.handleClose(socket);
  }

  /** Closes the current connection, failing what waited on it; no reconnect is planned. */
  private drop(): void {
    const socket = this.socket;
    this.socket = null;
    this.ready = false;
    clearInterval(this.keepAlive);
    for (const pending of this.pending.values()) {
      pending.reject(new SocketError(402, closedMessage));
    }
    this.pending.clear();
    socket?.close();
  }

  private restart(): void {
    this.drop();
    this.open();
  }

  private async handleOpen(socket: WebSocket): Promise<void> {
    if (this.socket !== socket) return;
    clearInterval(this.keepAlive);
    this.keepAlive = setInterval(
      () => void this.request('server.ping', []).catch(() => undefined),
      socketTimings.keepAliveMs,
    );
    const signedIn = this.token !== null && (await this.signIn(socket));
    if (this.socket !== socket || (this.token !== null && !signedIn && !this.keepPublic)) return;
    this.ready = true;
    for (const [channel, params] of this.subscriptions) {
      if (signedIn || !privateChannels.has(channel)) this.sendSubscription(channel, params);
    }
    for (const listener of this.readyListeners) listener();
    this.events.onReady?.();
  }

  private async signIn(socket: WebSocket): Promise<boolean> {
    this.keepPublic = false;
    try {
      await this.request('server.auth', [this.token, 'web']);
      this.authFailures = 0;
      return true;
    } catch (error) {
      if (this.socket !== socket) return false;
      const code = error instanceof SocketError ? error.code : 0;
      if (!retriedAuthCodes.includes(code)) {
        // A refused token (error 11) is not retried: the user signs in again over HTTP.
        this.keepPublic = true;
        return false;
      }
      this.authFailures++;
      if (this.authFailures >= authAttemptsMax) {
        this.gaveUp = true;
        this.drop();
        this.events.onAuthGaveUp?.();
      } else {
        // The close plans the reconnect, later by 100 ms per failure.
        socket.close();
      }
      return false;
    }
  }

  private sendSubscription(channel: string, params: unknown[]): void {
    void this.request(`${channel}.subscribe`, params).catch(() => undefined);
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
    this.drop();
    if (this.stopped) return;
    const { reconnectBaseMs, reconnectPerFailureMs, reconnectMaxMs } = socketTimings;
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
        this.hiddenClosed = true;
        clearTimeout(this.reconnectTimer);
        this.drop();
      }, socketTimings.hiddenCloseMs);
      return;
    }
    if (this.hiddenClosed) {
      this.hiddenClosed = false;
      this.open();
    }
  };
}
