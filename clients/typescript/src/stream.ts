// Push over WebSocket (GET /api/v1/stream) as an async iterator of typed messages (their types generated
// from the service's AsyncAPI document into src/stream-schema.ts): authenticated by header in Node (the
// `ws` package) or by a first `auth` message with a browser's own WebSocket, subscribed to the channels
// asked, made again after a drop (jittered exponential backoff) and subscribed again, ended for good by
// a refused key (4001, or 401 on the upgrade), too many connections (4008) or a subscription message
// over 64 KiB (1009) with a StreamError, closed by `return()` (a `break` out of `for await`). Loads
// nothing else at run time: a browser page can import it as it is (`@mdq/client/stream`).

import type { ScreenQuery } from './index.js';
import { flatQuery, screenQuery } from './query.js';
import type { components } from './stream-schema.js';

type Messages = components['schemas'];
/** Every message the server pushes, told apart by `type`: welcome, subscribed, unsubscribed, error, edition, bars, screen. */
export type StreamMessage = Messages['ServerMessage'];
/** The message of one `type`, e.g. `StreamMessageOf<'bars'>`. */
export type StreamMessageOf<T extends StreamMessage['type']> = Extract<StreamMessage, { type: T }>;
/** A standing screen's query: what `client.screen` takes (bounds as one object), `as_of` aside (a standing screen follows each edition). */
export type StreamScreenQuery = Omit<ScreenQuery, 'as_of'>;
/** A subscription: the protocol's subscribe message without `action`; a screen's `query` as `client.screen` takes it. */
export type Subscription =
  | Omit<Messages['client_editions'], 'action'>
  | Omit<Messages['client_bars'], 'action'>
  | (Omit<Messages['client_screenSubscribe'], 'action' | 'query'> & { query?: StreamScreenQuery });

export interface StreamOptions {
  /** Connections made again after drops in a row before the stream gives up with a StreamError `disconnected` (default: no end; 0: none). */
  reconnects?: number;
  /** The longest wait before a reconnection, seconds (default 30). The first waits about 0.5 s, each next twice as long, each between half and all of it at random. */
  maxReconnectWait?: number;
}

/** Where and how the stream connects: what `Client.stream` passes (or give it yourself to `stream`). */
export interface StreamTarget {
  /** Where the service is, e.g. `http://127.0.0.1:8080` (the stream is `ws://…/api/v1/stream`). */
  baseUrl: string;
  /** An API key. */
  key: string;
  /** A msgpack decoder: messages come as msgpack frames (`?format=msgpack`) and are read with it. */
  unpack?: (bytes: Uint8Array) => unknown;
}

/** Why a stream ended: its key refused, too many connections, or given up after `reconnects` drops. */
export class StreamError extends Error {
  /** `unauthorized` (a bad, disabled or rotated key), `too_many_connections` (the plan's connections per key), `message_too_big` (a subscription message over 64 KiB), `disconnected` (given up), or the code of the problem a refused upgrade answered. */
  readonly code: string;
  readonly detail: string;
  /** The HTTP status of a refused upgrade (Node: the key travels in it), else null. */
  readonly status: number | null;
  /** The WebSocket close code that ended it (4001, 4008, or the last drop's), else null. */
  readonly closeCode: number | null;

  constructor(code: string, detail: string, status: number | null, closeCode: number | null) {
    super(`${code}: ${detail}`);
    this.name = 'StreamError';
    this.code = code;
    this.detail = detail;
    this.status = status;
    this.closeCode = closeCode;
  }
}

/** The close codes that end a stream for good (the key, the plan's connections): reconnecting would be refused the same way. */
const FINAL_CLOSES: Record<number, string> = {
  4001: 'unauthorized',
  4008: 'too_many_connections',
  1009: 'message_too_big', // a subscription over 64 KiB: sent again, it would be refused again
};

/** What the stream uses of a WebSocket: the standard (browser) interface, which `ws` implements too. */
interface Socket {
  binaryType: string;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: { message?: string }) => void) | null;
  send(data: string): void;
  close(code?: number): void;
}
/** `ws`'s additions: its own events (the refused upgrade's HTTP answer) and an immediate end. */
interface NodeSocket extends Socket {
  on(event: 'unexpected-response', listener: (request: unknown, response: HttpAnswer) => void): void;
  terminate(): void;
}
interface HttpAnswer {
  statusCode?: number;
  headers: Record<string, string | string[] | undefined>;
  on(event: 'data' | 'end' | 'error', listener: (chunk?: unknown) => void): void;
}
/** A WebSocket class; `headers`: it takes the key as a header (Node's `ws`), else it sends `auth` first (a browser's). */
interface SocketKind {
  open(url: string, key: string): Socket;
  headers: boolean;
}

let socketKind: Promise<SocketKind> | null = null;
/** Node: the `ws` package (Node 20 has no WebSocket; it can set the key header); elsewhere the global WebSocket. */
function socketKindHere(): Promise<SocketKind> {
  return (socketKind ??= (async (): Promise<SocketKind> => {
    const here = globalThis as { process?: { versions?: { node?: string } }; WebSocket?: new (url: string) => Socket };
    if (here.process?.versions?.node !== undefined) {
      const { default: WebSocket } = await import('ws');
      return {
        open: (url, key) => new WebSocket(url, { headers: { 'x-api-key': key } }) as unknown as Socket,
        headers: true,
      };
    }
    const WebSocket = here.WebSocket;
    if (WebSocket === undefined)
      throw new Error('no WebSocket here (neither Node, for the ws package, nor a global WebSocket)');
    return { open: (url) => new WebSocket(url), headers: false };
  })());
}

/** A refused upgrade's answer (ws only): its status, problem and Retry-After. */
interface Refusal {
  status: number;
  code: string;
  detail: string;
  retryAfter: number | null;
}

function readRefusal(res: HttpAnswer): Promise<Refusal> {
  return new Promise((resolve) => {
    const status = res.statusCode ?? 0;
    const after = res.headers['retry-after'];
    const retryAfter = typeof after === 'string' && /^\d+$/.test(after) ? Number(after) : null;
    const chunks: Uint8Array[] = [];
    const done = (): void => {
      let problem: { code?: unknown; detail?: unknown } = {};
      try {
        problem = JSON.parse(new TextDecoder().decode(concat(chunks))) as typeof problem;
      } catch {}
      resolve({
        status,
        code: typeof problem.code === 'string' ? problem.code : 'http_error',
        detail: typeof problem.detail === 'string' ? problem.detail : `the upgrade was answered ${status}`,
        retryAfter,
      });
    };
    res.on('data', (chunk) => chunks.push(chunk as Uint8Array));
    res.on('end', done);
    res.on('error', done);
  });
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) out.set(c, (at += c.length) - c.length);
  return out;
}

/** The subscribe message a subscription sends (the screen's bounds spread, its lists joined). */
function subscribeMessage(s: Subscription): Messages['ClientMessage'] {
  if (s.channel === 'screen')
    return {
      action: 'subscribe',
      channel: 'screen',
      market: s.market,
      id: s.id,
      query: flatQuery(screenQuery(s.query ?? {})),
    };
  return { action: 'subscribe', ...s };
}

/**
 * The messages of a stream, as an async iterator: `for await (const m of stream)`. Every message the
 * server sends comes through, `error` messages (a refused subscription, a spent quota) included; after
 * a reconnection a new `welcome`, the `subscribed` replies again and each screen's page. Ends when
 * `return()` is called (a `break`), or throws a StreamError once the key is refused.
 */
export class MessageStream implements AsyncIterableIterator<StreamMessage> {
  private readonly queue: StreamMessage[] = [];
  /** The subscribe messages, sent after every `welcome` (a copy: the caller's array may change). */
  private readonly subscribe: readonly string[];
  private readonly waiting: { resolve(r: IteratorResult<StreamMessage>): void; reject(e: unknown): void }[] = [];
  private failure: StreamError | null = null;
  private ended = false;
  private socket: Socket | null = null;
  private socketClosed: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Drops since the last `welcome`. */
  private drops = 0;

  constructor(
    private readonly target: StreamTarget,
    subscriptions: readonly Subscription[],
    private readonly options: StreamOptions = {},
  ) {
    this.subscribe = subscriptions.map((s) => JSON.stringify(subscribeMessage(s)));
    void this.connect();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<StreamMessage>> {
    if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.failure !== null) {
      const failure = this.failure;
      this.failure = null; // thrown once; the stream is done after it
      return Promise.reject(failure);
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** Ends the stream: the socket closed (awaited), no reconnection, messages not yet read dropped. */
  async return(): Promise<IteratorResult<StreamMessage>> {
    const socket = this.socket;
    this.end();
    this.queue.length = 0;
    this.failure = null;
    for (const w of this.waiting.splice(0)) w.resolve({ value: undefined, done: true });
    await new Promise<void>((resolve) => {
      // The close handshake, bounded: a server that does not answer it is cut (ws) or left to the browser.
      const cut = setTimeout(() => {
        (socket as Partial<NodeSocket> | null)?.terminate?.();
        resolve();
      }, 2000);
      void this.socketClosed.then(() => {
        clearTimeout(cut);
        resolve();
      });
    });
    return { value: undefined, done: true };
  }

  /** The same as `return()`. */
  close(): Promise<void> {
    return this.return().then(() => undefined);
  }

  private async connect(): Promise<void> {
    let kind: SocketKind;
    try {
      kind = await socketKindHere();
    } catch (error) {
      return this.fail(new StreamError('no_websocket', (error as Error).message, null, null));
    }
    if (this.ended) return;
    const url = `${this.target.baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws')}/api/v1/stream${this.target.unpack === undefined ? '' : '?format=msgpack'}`;
    const socket = kind.open(url, this.target.key);
    socket.binaryType = 'arraybuffer';
    let refusal: Refusal | null = null;
    let failed = '';
    let closed!: () => void;
    this.socketClosed = new Promise((resolve) => (closed = resolve));
    if (kind.headers)
      (socket as NodeSocket).on('unexpected-response', (_request, response) =>
        readRefusal(response).then((r) => {
          refusal = r;
          (socket as NodeSocket).terminate(); // then its close event, which reads the refusal
        }),
      );
    socket.onopen = () => {
      if (!kind.headers) socket.send(JSON.stringify({ action: 'auth', key: this.target.key }));
    };
    socket.onmessage = (event) => {
      let message: StreamMessage;
      try {
        message = this.decode(event.data);
      } catch (error) {
        return this.fail(new StreamError('invalid_message', (error as Error).message, null, null));
      }
      if (message.type === 'welcome') {
        this.drops = 0;
        for (const request of this.subscribe) socket.send(request);
      }
      this.push(message);
    };
    socket.onerror = (event) => void (failed = event.message ?? failed);
    socket.onclose = (event) => {
      if (this.socket === socket) this.socket = null;
      closed();
      this.dropped(event.code, event.reason || failed, refusal);
    };
    this.socket = socket;
  }

  private decode(data: unknown): StreamMessage {
    if (typeof data === 'string') return JSON.parse(data) as StreamMessage;
    if (this.target.unpack === undefined) throw new Error('a binary frame on a JSON stream');
    return this.target.unpack(new Uint8Array(data as ArrayBuffer)) as StreamMessage;
  }

  /** The socket closed: the end for a refused key or too many connections, else a reconnection after a backoff. */
  private dropped(code: number, reason: string, refusal: Refusal | null): void {
    if (this.ended) return;
    if (refusal !== null && refusal.status !== 429 && refusal.status < 500)
      return this.fail(new StreamError(refusal.code, refusal.detail, refusal.status, null));
    const final = FINAL_CLOSES[code];
    if (final !== undefined)
      return this.fail(new StreamError(final, reason === final ? `closed ${code} ${reason}` : reason, null, code));
    const limit = this.options.reconnects ?? Number.POSITIVE_INFINITY;
    if (this.drops >= limit)
      return this.fail(
        new StreamError(
          'disconnected',
          `closed ${code}${reason === '' ? '' : ` ${reason}`}; gave up after ${limit} reconnections`,
          null,
          code,
        ),
      );
    const longest = this.options.maxReconnectWait ?? 30;
    const backoff = Math.min(longest, 0.5 * 2 ** this.drops) * (0.5 + Math.random() * 0.5); // jitter spreads clients dropped together
    this.drops++;
    const wait = Math.max(backoff, refusal?.retryAfter ?? 0); // never sooner than a 429's or 503's Retry-After
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, wait * 1000);
  }

  private push(message: StreamMessage): void {
    const waiter = this.waiting.shift();
    if (waiter !== undefined) waiter.resolve({ value: message, done: false });
    else this.queue.push(message);
  }

  private fail(error: StreamError): void {
    if (this.ended) return;
    this.end();
    const waiter = this.waiting.shift();
    if (waiter !== undefined) waiter.reject(error);
    else this.failure = error;
    for (const w of this.waiting.splice(0)) w.resolve({ value: undefined, done: true });
  }

  private end(): void {
    this.ended = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.socket?.close(1000);
    this.socket = null;
  }
}

/**
 * The messages of `subscriptions` pushed by the service at `target`, as an async iterator (see
 * MessageStream); `Client.stream` is this with the client's address, key and format.
 */
export function stream(
  target: StreamTarget,
  subscriptions: readonly Subscription[],
  options: StreamOptions = {},
): MessageStream {
  return new MessageStream(target, subscriptions, options);
}
