// A WebSocket client of /api/v1/stream for tests (the `ws` package: Node 20 has no WebSocket): every
// message kept in order (msgpack frames decoded), waits for the one a test expects, the close seen.

import { unpack } from 'msgpackr';
import WebSocket from 'ws';

/** A server message as parsed: tests read its fields. */
export type Message = any;

export interface StreamClient {
  readonly ws: WebSocket;
  /** Every message received so far, decoded (JSON text or msgpack), in order. */
  readonly messages: Message[];
  /** Each frame as it came: binary or text, and its bytes (what the decoded message was read from). */
  readonly frames: { binary: boolean; data: Buffer }[];
  /** The close code and reason, once closed. */
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Sends an object as a JSON text frame, or text or bytes as they are. */
  send(message: object | string | Buffer, binary?: boolean): void;
  /** The first message from index `from` on that `match` accepts; rejects after `timeoutMs` naming what came. */
  waitFor(match: (m: Message) => boolean, timeoutMs?: number, from?: number): Promise<Message>;
  /** Waits for the next `n` messages after index `from`. */
  nextMessages(n: number, from: number, timeoutMs?: number): Promise<Message[]>;
  close(): void;
}

export interface OpenOptions {
  key?: string;
  /** `?format=` (none: JSON). */
  format?: string;
  headers?: Record<string, string>;
  /** The address to connect from (spreads many sockets over 127.0.0.x). */
  localAddress?: string;
  query?: string;
}

/** A refused upgrade: the HTTP answer the server gave instead. */
export class UpgradeRefused extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string | string[] | undefined>,
    readonly body: Message,
  ) {
    super(`upgrade refused ${status}: ${JSON.stringify(body)}`);
  }
}

export function streamUrl(port: number, options: OpenOptions = {}): string {
  const query = options.query ?? (options.format === undefined ? '' : `format=${options.format}`);
  return `ws://127.0.0.1:${port}/api/v1/stream${query === '' ? '' : `?${query}`}`;
}

/** Opens a stream; resolves once open, rejects with UpgradeRefused when the server answers the upgrade with HTTP. */
export function openStream(port: number, options: OpenOptions = {}): Promise<StreamClient> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  const ws = new WebSocket(streamUrl(port, options), { headers, localAddress: options.localAddress });
  const messages: Message[] = [];
  const frames: { binary: boolean; data: Buffer }[] = [];
  const wakers = new Set<() => void>();
  let ended = false;
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => {
      ended = true;
      resolve({ code, reason: reason.toString('utf8') });
      for (const wake of wakers) wake();
    }),
  );
  ws.on('message', (data: Buffer, binary: boolean) => {
    frames.push({ binary, data });
    messages.push(binary ? unpack(data) : JSON.parse(data.toString('utf8')));
    for (const wake of wakers) wake();
  });
  const waitFor = (match: (m: Message) => boolean, timeoutMs = 5000, from = 0): Promise<Message> =>
    new Promise((resolve, reject) => {
      // Each message is offered to `match` once, as it comes: scanning all again at every message made
      // a wait for thousands of messages cubic (a predicate that counts them is itself a scan).
      let next = from;
      const check = (): boolean => {
        for (; next < messages.length; next++)
          if (match(messages[next])) {
            done();
            resolve(messages[next]);
            return true;
          }
        if (ended) {
          done();
          reject(new Error(`closed before the message awaited; got ${JSON.stringify(messages.slice(from))}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no such message within ${timeoutMs} ms; got ${JSON.stringify(messages.slice(from))}`));
      }, timeoutMs);
      const wake = (): void => void check();
      const done = (): void => {
        clearTimeout(timer);
        wakers.delete(wake);
      };
      wakers.add(wake);
      check();
    });
  const client: StreamClient = {
    ws,
    messages,
    frames,
    closed,
    send: (message, binary = false) =>
      ws.send(typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message), { binary }),
    waitFor,
    nextMessages: async (n, from, timeoutMs = 5000) => {
      await waitFor(() => messages.length >= from + n, timeoutMs, from);
      return messages.slice(from, from + n);
    },
    close: () => ws.close(),
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        reject(new UpgradeRefused(res.statusCode ?? 0, res.headers, body));
      });
    });
    ws.once('error', (error) => reject(error));
  });
}

/** Opens a stream with `key` and waits for its `welcome`. */
export async function welcomed(port: number, options: OpenOptions): Promise<StreamClient> {
  const client = await openStream(port, options);
  await client.waitFor((m) => m.type === 'welcome');
  return client;
}
