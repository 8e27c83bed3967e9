// The main thread's side of the dashboard and /metrics of the other serving threads: each request
// a serving thread hands over (forward-to-main.ts) is sent to this thread's own loopback listener,
// so the same handlers answer it as they answer requests that reach this thread directly, and
// the answer goes back on the port with the flag raised that the serving thread waits on.

import { Agent, request } from 'node:http';
import type { MessagePort } from 'node:worker_threads';
import { FORWARD_TOKEN_HEADER, FORWARDED_FOR_HEADER } from '../http/forwarded.js';
import type { ForwardAnswer, ForwardRequest } from './messages.js';

/** Fields of one hop only (RFC 9110 §7.6.1), the ones uWS writes itself, and the forward's own. */
const HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
  'proxy-connection',
  'content-length',
  'date',
  'uwebsockets',
  FORWARD_TOKEN_HEADER,
  FORWARDED_FOR_HEADER,
]);

/**
 * Text as node:http sends it byte for byte: each UTF-8 byte as one Latin-1 character. uWS
 * decoded the client's bytes as UTF-8; sent this way the main thread's uWS decodes the same
 * text again (node:http refuses characters above U+00FF in a path or a field).
 */
const asBytes = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

/** Answers the requests of one serving thread's `port`, over this thread's loopback listener at `listenPort`. */
export function relayForwards(port: MessagePort, signal: SharedArrayBuffer, listenPort: number, token: string): void {
  const raised = new Int32Array(signal);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const reply = (answer: ForwardAnswer): void => {
    port.postMessage(answer);
    Atomics.store(raised, 0, 1);
    Atomics.notify(raised, 0);
  };
  port.on('message', (m: ForwardRequest) => {
    loopback(m, listenPort, token, agent).then(reply, (error: unknown) =>
      reply({
        id: m.id,
        status: 0,
        statusText: '',
        headers: [],
        body: Buffer.alloc(0),
        close: false,
        failure: error instanceof Error ? error.message : String(error),
      }),
    );
  });
}

/** One request to the loopback listener, as the client sent it, with the client's address. */
function loopback(m: ForwardRequest, listenPort: number, token: string, agent: Agent): Promise<ForwardAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, raw] of m.headers) {
      if (HOP.has(name)) continue;
      const value = asBytes(raw);
      const had = headers[name];
      headers[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value]; // duplicates stay duplicates
    }
    headers[FORWARDED_FOR_HEADER] = m.address;
    headers[FORWARD_TOKEN_HEADER] = token;
    if (m.body !== null) headers['content-length'] = String(m.body.length);
    const out = request(
      { host: '127.0.0.1', port: listenPort, method: m.method, path: asBytes(m.target), headers, agent },
      (back) => {
        const chunks: Buffer[] = [];
        back.on('data', (chunk: Buffer) => chunks.push(chunk));
        back.on('error', reject);
        back.on('end', () => {
          const kept: [string, string][] = [];
          const raw = back.rawHeaders;
          for (let i = 0; i < raw.length; i += 2) if (!HOP.has(raw[i].toLowerCase())) kept.push([raw[i], raw[i + 1]]);
          resolve({
            id: m.id,
            status: back.statusCode ?? 500,
            statusText: back.statusMessage ?? '',
            headers: kept,
            body: Buffer.concat(chunks),
            close: back.headers.connection === 'close',
          });
        });
      },
    );
    out.on('error', reject);
    out.end(m.body ?? undefined);
  });
}
