// One dashboard request: read synchronously, onAborted first, body via onData, then answer once (corked).

import { clientAddress } from '../http/forwarded.js';
import { requestIdOf } from '../http/request-id.js';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { Problem } from '../problem.js';
import { type HeaderList, send, sendProblem } from '../respond.js';

/** Largest request body a dashboard write may send. */
export const MAX_BODY = 16 * 1024;
export const COOKIE = 'mdq_admin';

/** Everything a dashboard handler reads of the request, copied before the handler returns. */
export interface AdminRequest {
  method: string;
  url: string;
  params: string[];
  cookie: string | null;
  origin: string | null;
  host: string;
  csrf: string | null;
  contentType: string;
  ip: string;
  /** X-Request-Id: the client's, or a new one; on every answer and in problem bodies. */
  requestId: string;
}

/** Headers of every dashboard answer: nothing cached, nothing sniffed, never framed. */
export const SECURITY_HEADERS: HeaderList = [
  'cache-control',
  'no-store',
  'x-content-type-options',
  'nosniff',
  'x-frame-options',
  'DENY',
  'referrer-policy',
  'no-referrer',
  'cross-origin-resource-policy',
  'same-origin',
];

/** The value of cookie `name` in a Cookie header, or null. */
export function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Copies what the dashboard needs out of `req`: it is gone once the handler returns. */
export function readRequest(res: HttpResponse, req: HttpRequest, paramCount: number): AdminRequest {
  const params: string[] = [];
  for (let i = 0; i < paramCount; i++) params.push(req.getParameter(i) ?? '');
  const header = (name: string): string | null => {
    const v = req.getHeader(name);
    return v === '' ? null : v;
  };
  const cookieHeader = header('cookie');
  return {
    method: req.getMethod(),
    url: req.getUrl(),
    params,
    cookie: cookieHeader === null ? null : cookieValue(cookieHeader, COOKIE),
    origin: header('origin'),
    host: req.getHeader('host'),
    csrf: header('x-csrf-token'),
    contentType: req.getHeader('content-type'),
    ip: clientAddress(res, req),
    requestId: requestIdOf(req.getHeader('x-request-id')),
  };
}

/**
 * The answering side of one request. `onAborted` is registered at construction (before any
 * await); after an abort or the first answer, further answers are dropped, so `res` is
 * never touched again. Every answer corks (respond.ts), as async answers must.
 */
export class Reply {
  private state: 'open' | 'aborted' | 'done' = 'open';

  constructor(
    private readonly res: HttpResponse,
    private readonly extra: () => HeaderList,
    private readonly requestId: string,
  ) {
    res.onAborted(() => {
      this.state = 'aborted';
    });
  }

  get open(): boolean {
    return this.state === 'open';
  }

  private headers(more: HeaderList): HeaderList {
    return [...SECURITY_HEADERS, 'x-request-id', this.requestId, ...this.extra(), ...more];
  }

  /** A 200 (or other status) with a body of `contentType`. */
  send(status: number, contentType: string, body: string | Buffer, more: HeaderList = [], close = false): void {
    if (this.state !== 'open') return;
    this.state = 'done';
    send(this.res, status, contentType, body, this.headers(more), close);
  }

  problem(problem: Problem, more: HeaderList = [], close = false): void {
    if (this.state !== 'open') return;
    this.state = 'done';
    sendProblem(this.res, problem, this.headers(more), close, false, this.requestId);
  }
}

/**
 * Collects the request body (call in the handler's synchronous part: uWS hands chunks to
 * `onData` only if it is registered before the handler returns). Each chunk's memory is
 * reused by uWS after the callback, so it is copied. Rejects above MAX_BODY bytes.
 */
export function readBody(res: HttpResponse): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    res.onData((chunk, last) => {
      if (failed) return;
      size += chunk.byteLength;
      if (size > MAX_BODY) {
        failed = true;
        reject(new Problem('invalid_parameter', `the request body is larger than ${MAX_BODY} bytes`, 'body'));
        return;
      }
      chunks.push(Buffer.from(new Uint8Array(chunk).slice()));
      if (last) resolve(Buffer.concat(chunks));
    });
  });
}

/** A JSON object body (empty means `{}`); 400 for anything else. */
export function parseJsonBody(body: Buffer, contentType: string): Record<string, unknown> {
  if (body.length === 0) return {};
  if (!/^application\/json\s*(;|$)/i.test(contentType))
    throw new Problem('invalid_parameter', 'the body must be application/json', 'content-type');
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw new Problem('invalid_parameter', 'the body is not valid JSON', 'body');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Problem('invalid_parameter', 'the body must be a JSON object', 'body');
  return value as Record<string, unknown>;
}
