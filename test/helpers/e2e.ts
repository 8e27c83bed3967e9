// Shared pieces of the end-to-end API tests: clocks, exact JSON comparison, problem checks, raw HTTP.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import type { ApiResponse, TestServer } from './api-server.js';
import { startTestServer } from './api-server.js';

/** 2025-03-15T01:00:00Z: a quiet hour, far from the UTC day boundary. */
export const CLOCK_START = Date.UTC(2025, 2, 15, 1, 0, 0);

/** A clock the test moves by hand (the guard reads it once per request). */
export class ManualClock {
  constructor(public ms: number = CLOCK_START) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

/**
 * A clock that moves one second each time it is read, so the token bucket of any key
 * refills faster than a test can drain it: for files that test answers, not limits.
 */
export function tickingClock(start = CLOCK_START, stepMs = 1000): () => number {
  let ms = start;
  return () => (ms += stepMs);
}

/** A server whose rate buckets never run dry (a ticking clock), for the answer and error tests. */
export const startAnswerServer = (): Promise<TestServer> => startTestServer({ now: tickingClock() });

/** A server on a hand-moved clock, for tests of limits; closed when the test ends. */
export async function startLimitServer(
  t: { after(fn: () => Promise<void> | void): void },
  clock = new ManualClock(),
  timeZone?: string,
): Promise<{ server: TestServer; clock: ManualClock }> {
  const server = await startTestServer(timeZone === undefined ? { now: clock.now } : { now: clock.now, timeZone });
  t.after(() => server.close());
  return { server, clock };
}

/** Spends a key's whole rate bucket at the current instant (requests to /quota, which charges no rows); returns how many. */
export async function drainBucket(server: TestServer, key: string): Promise<number> {
  for (let n = 1; n <= 1000; n++) {
    const res = await server.get('/api/v1/quota', { key });
    assert.equal(res.status, 200, `request ${n} passes while tokens are left`);
    if (res.headers['x-ratelimit-remaining'] === '0') return n;
  }
  throw new Error('the bucket never ran dry');
}

/** The free-plan batch that answers the most fixture rows: five ashare symbols, 100 rows each at most. */
export const BIG_FREE_BATCH = '/api/v1/ashare/klines?symbols=sh600001,sz000003,sz000004,sz000005,sh600006&limit=100';

/**
 * Spends the free key's whole daily quota with big batches, 2 s apart (one token refilled
 * each time), until X-Quota-Remaining reads 0. Returns rows charged and requests made.
 */
export async function exhaustFreeQuota(
  server: TestServer,
  clock: ManualClock,
): Promise<{ used: number; requests: number; lastCount: number }> {
  let used = 0;
  let requests = 0;
  let lastCount = 0;
  for (;;) {
    clock.advance(2000);
    const res = await server.get(BIG_FREE_BATCH, { key: server.keys.free });
    assert.equal(res.status, 200, `batch ${requests + 1} is served while rows are left (${res.text})`);
    requests++;
    lastCount = res.body.count;
    used += lastCount;
    if (res.headers['x-quota-remaining'] === '0') return { used, requests, lastCount };
    assert.ok(requests < 100, 'the quota runs out within 100 batches');
  }
}

/** Which object nodes may hold their keys in any order (a path of keys from the root). */
export type UnorderedAt = (path: readonly string[]) => boolean;

function keyOrder(actual: unknown, expected: unknown, path: string[], message: string, unordered: UnorderedAt): void {
  if (Array.isArray(expected)) {
    (expected as unknown[]).forEach((item, i) =>
      keyOrder((actual as unknown[])[i], item, [...path, String(i)], message, unordered),
    );
    return;
  }
  if (expected === null || typeof expected !== 'object') return;
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  if (!unordered(path))
    assert.deepEqual(Object.keys(a), Object.keys(e), `${message} (key order at /${path.join('/')})`);
  for (const k of Object.keys(e)) keyOrder(a[k], e[k], [...path, k], message, unordered);
}

/** deepStrictEqual, then the key order of every object node (except those `unordered` names). */
export function assertJsonExact(
  actual: unknown,
  expected: unknown,
  message: string,
  unordered: UnorderedAt = () => false,
): void {
  assert.deepStrictEqual(actual, expected, message);
  keyOrder(actual, expected, [], message, unordered);
}

/** Asserts an RFC 9457 problem answer: status, code, and (when given) the parameter it names. */
export function assertProblem(res: ApiResponse, status: number, code: string, param?: string, message = ''): void {
  const what = message || `${status} ${code}`;
  assert.equal(res.status, status, `${what}: status (body ${res.text})`);
  assert.equal(res.body?.code, code, `${what}: code`);
  assert.equal(res.body?.status, status, `${what}: body status matches the HTTP status`);
  if (param !== undefined) assert.equal(res.body?.param, param, `${what}: param names the parameter`);
}

/** Asserts a 200 JSON answer and returns its body. */
export function ok(res: ApiResponse, message: string): any {
  assert.equal(res.status, 200, `${message}: status 200 (body ${res.text})`);
  return res.body;
}

/** A raw HTTP/1.1 exchange over one socket: what the server really wrote, body bytes included. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** Everything after the blank line that ends the header block. */
  rest: string;
}

/** Sends `lines` (request line and headers) and reads until the server closes the connection. */
export function rawRequest(port: number, lines: string[]): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const cut = text.indexOf('\r\n\r\n');
      const head = (cut < 0 ? text : text.slice(0, cut)).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(head[0]?.split(' ')[1]), headers, rest: cut < 0 ? '' : text.slice(cut + 4) });
    });
    socket.write([...lines, 'Host: 127.0.0.1', 'Connection: close', '', ''].join('\r\n'));
  });
}

/**
 * The key record a key text stands for (`mdq_<id>_<secret>`, stored as SHA-256 of the
 * secret), as the key table hands it to the guard: lets a test disable a key the way the
 * state sync does after `keys disable`.
 */
export function keyRecordOf(key: string, plan: 'free' | 'pro' | 'enterprise' | 'internal', disabled: boolean) {
  const cut = key.indexOf('_', 4);
  const id = key.slice(4, cut);
  const hash = createHash('sha256')
    .update(key.slice(cut + 1), 'latin1')
    .digest();
  return { id, plan, org: `${plan} desk`, created: '2025-01-01T00:00:00.000Z', disabled, hash: new Uint8Array(hash) };
}
