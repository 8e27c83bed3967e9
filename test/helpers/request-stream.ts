// A bounded stream of GETs over a few keep-alive connections, every exchange recorded in order per connection.

import { type Exchange, KeepAliveClient } from './keep-alive.js';

/** One request of the stream: what was asked, when, and how it ended. */
export interface StreamRecord {
  path: string;
  /** performance.timeOrigin + performance.now() at send: comparable across processes. */
  sentAt: number;
  exchange: Exchange;
}

export interface StreamOptions {
  port: number;
  connections: number;
  /** Paths asked in turn (each connection starts at a different one). */
  paths: readonly string[];
  headers?: Record<string, string>;
  /** Most requests per connection: the stream stops by itself. */
  maxPerConnection: number;
  /** Requests a second per connection (paced); 0: one after the other. */
  ratePerConnection?: number;
  /** Stop a connection after a refused connect (nobody listens any more). */
  stopWhenRefused?: boolean;
}

export interface RequestStream {
  /** Per connection, every exchange in the order it was sent. */
  readonly records: StreamRecord[][];
  /** Asks every connection to stop after its current request; resolves when all have. */
  stop(): Promise<void>;
  /** Resolves when every connection has stopped (by `stop`, its cap, or a refusal). */
  readonly done: Promise<void>;
  /** Responses received so far (any status). */
  answered(): number;
}

/** Epoch milliseconds with sub-millisecond resolution. */
export const epochMs = (): number => performance.timeOrigin + performance.now();

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the stream at once. */
export function startRequestStream(options: StreamOptions): RequestStream {
  const records: StreamRecord[][] = [];
  let stopping = false;
  let answered = 0;
  const gap = options.ratePerConnection ? 1000 / options.ratePerConnection : 0;
  const lane = async (n: number): Promise<void> => {
    const client = new KeepAliveClient(options.port);
    const mine: StreamRecord[] = (records[n] = []);
    let next = epochMs();
    try {
      for (let i = 0; i < options.maxPerConnection && !stopping; i++) {
        const path = options.paths[(n + i) % options.paths.length];
        if (gap > 0) {
          next += gap;
          const wait = next - epochMs();
          if (wait > 0) await sleep(wait);
          else if (wait < -1000) next = epochMs(); // fell behind: do not burst to catch up
        } else if (i % 16 === 15) {
          await new Promise((resolve) => setImmediate(resolve)); // let the rest of the test run
        }
        const sentAt = epochMs();
        const exchange = await client.get(path, options.headers);
        mine.push({ path, sentAt, exchange });
        if (exchange.kind === 'response') answered++;
        if (exchange.kind === 'refused' && options.stopWhenRefused) break;
      }
    } finally {
      client.close();
    }
  };
  const done = Promise.all(Array.from({ length: options.connections }, (_, n) => lane(n))).then(() => {});
  return {
    records,
    done,
    answered: () => answered,
    stop: async () => {
      stopping = true;
      await done;
    },
  };
}

/** Resolves once `stream` has `count` more answers than when called (or rejects after `timeoutMs`). */
export async function waitForAnswers(stream: RequestStream, count: number, timeoutMs = 5000): Promise<void> {
  const target = stream.answered() + count;
  const until = Date.now() + timeoutMs;
  while (stream.answered() < target) {
    if (Date.now() > until)
      throw new Error(`the stream answered ${stream.answered()} of ${target} requests within ${timeoutMs} ms`);
    await sleep(5);
  }
}
