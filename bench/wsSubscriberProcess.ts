// The subscribers' child process of bench/ws.ts (`ws.ts client`): opens its share of the
// subscribers (wsSubscribers.ts speaks the WebSocket), keeps them alive with pings as the web app
// does, and records what the sampled ones see and when; once the parent sends when each change
// was published, it turns that into latency histograms and reports them.
import type { Socket } from 'node:net';
import { binCount, binsPerMs, type ClientReport, market, now, type Published } from './wsBase.js';
import { openSubscriber, textFrame } from './wsSubscribers.js';

/** One subscriber in this many records latencies; all of them read every frame. */
const sampleEvery = 10;

/** What a sampled subscriber saw: a probe's level appear or leave, or its deal. */
const seen = { put: 0, removed: 1, deal: 2 } as const;

/**
 * What sampled subscribers saw, and when; turned into latencies once the parent sends when each
 * change was published (a frame may arrive before word of its publication would).
 */
function sightings() {
  const kinds: number[] = [];
  const cents: number[] = [];
  const times: number[] = [];
  let measuring = false;
  const add = (kind: number, price: string, at: number) => {
    // A probe's price in cents names it ("20001.23" is 2,000,123 cents).
    const [whole = '', fraction = ''] = price.split('.');
    kinds.push(kind);
    cents.push(Number.parseInt(whole + fraction.padEnd(2, '0').slice(0, 2), 10));
    times.push(at);
  };
  const onSampled = (payload: Buffer) => {
    if (!measuring) return;
    const received = now();
    const message = JSON.parse(payload.toString()) as { method?: string; params?: unknown[] };
    if (message.method === 'deals.update') {
      for (const deal of (message.params?.[1] ?? []) as { price: string }[]) {
        add(seen.deal, deal.price, received);
      }
    } else if (message.method === 'depth.update' && message.params?.[0] === false) {
      const { bids = [] } = message.params[1] as { bids?: string[][] };
      for (const [price = '', amount] of bids) {
        add(amount === '0' ? seen.removed : seen.put, price, received);
      }
    }
  };
  const report = (published: Published) => {
    const put = new Map<number, number>();
    const deal = new Map<number, number>();
    published.cents.forEach((price, i) => {
      put.set(price, published.put[i]!);
      deal.set(price, published.deal[i]!);
    });
    const depthBins = new Array<number>(binCount + 1).fill(0);
    const dealsBins = new Array<number>(binCount + 1).fill(0);
    let unmatched = 0;
    for (let i = 0; i < kinds.length; i++) {
      const kind = kinds[i]!;
      const at = (kind === seen.put ? put : deal).get(cents[i]!);
      if (at === undefined || at === 0) {
        unmatched += 1;
        continue;
      }
      const bins = kind === seen.deal ? dealsBins : depthBins;
      const latencyMs = Math.max(0, times[i]! - at);
      bins[Math.min(binCount, Math.floor(latencyMs * binsPerMs))]! += 1;
    }
    return { depthBins, dealsBins, unmatched };
  };
  return {
    onSampled,
    report,
    start: () => {
      measuring = true;
    },
    stop: () => {
      measuring = false;
    },
  };
}

/** One subscriber on depth and deals; resolves once its depth snapshot arrived. */
function subscribe(
  port: number,
  sampled: boolean,
  onSampled: (payload: Buffer) => void,
): Promise<{ socket: Socket; frames: () => number }> {
  return new Promise((resolve, reject) => {
    let ready = false;
    let opened: { socket: Socket; frames: () => number } | undefined;
    openSubscriber({
      port,
      requests: [
        JSON.stringify({ id: 1, method: 'depth.subscribe', params: [market, 50, '0'] }),
        JSON.stringify({ id: 2, method: 'deals.subscribe', params: [market] }),
      ],
      onFrame: (payload) => {
        if (ready) {
          onSampled(payload);
          return true;
        }
        if (!payload.includes('"depth.update"')) return true;
        ready = true;
        // The snapshot follows the upgrade, so the subscriber is known by now.
        setImmediate(() => (opened ? resolve(opened) : reject(new Error('no subscriber'))));
        return sampled;
      },
    })
      .then((subscriber) => {
        opened = subscriber;
      })
      .catch(reject);
  });
}

/** The child's part: opens its subscribers, counts from `measure`, reports on `stop`. */
export function runClient(): void {
  const subscribers: { socket: Socket; frames: () => number }[] = [];
  const recorder = sightings();
  let framesBefore = 0;
  let closed = 0;
  // Like the web app, every subscriber pings every 30 s; a silent one is closed after 90 s.
  const ping = textFrame('{"id":3,"method":"server.ping","params":[]}');
  const keepAlive = setInterval(() => {
    for (const { socket } of subscribers) if (!socket.destroyed) socket.write(ping);
  }, 30_000);
  keepAlive.unref();
  const frames = () => subscribers.reduce((sum, subscriber) => sum + subscriber.frames(), 0);

  process.on('message', async (message: { kind: string; [key: string]: unknown }) => {
    if (message.kind === 'open') {
      const { port = 0, count = 0, offset = 0 } = message as unknown as Record<string, number>;
      // A few hundred handshakes at a time keep the listen backlog from overflowing.
      for (let i = 0; i < count; i += 200) {
        const batch = Array.from({ length: Math.min(200, count - i) }, async (_, k) => {
          const sampled = (offset + i + k) % sampleEvery === 0;
          const subscriber = await subscribe(port, sampled, recorder.onSampled);
          subscriber.socket.on('close', () => {
            closed += 1;
          });
          subscribers.push(subscriber);
        });
        await Promise.all(batch);
      }
      process.send?.({ kind: 'ready' });
    } else if (message.kind === 'measure') {
      framesBefore = frames();
      recorder.start();
    } else if (message.kind === 'stop') {
      recorder.stop();
      const report: ClientReport = {
        ...recorder.report(message.published as Published),
        frames: frames() - framesBefore,
        closed,
      };
      process.send?.({ kind: 'report', report }, () => {
        for (const { socket } of subscribers) socket.destroy();
        process.exit(0);
      });
    }
  });
}
