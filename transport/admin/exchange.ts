// One dashboard request as an exchange: read once in the handler, framing and Host checked, the
// body via onData, then one answer (corked), any throw one problem answer.

import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { clientAddress } from '../http/forwarded.js';
import { requestFramingProblem } from '../http/framing.js';
import { requestIdOf } from '../http/request-id.js';
import { Exchange, type ProblemOf } from '../lifecycle/exchange.js';
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

/** What a dashboard exchange reads of the server: the Host check, the data version, the server's problem mapping. */
export interface AdminHost {
  checkHost(host: string): Problem | null;
  versionHeaders(): HeaderList;
  problemOf: ProblemOf;
}

/**
 * One dashboard request: framing and the Host check first (every dashboard path), then `run`,
 * which answers with `send` or throws its problem; bodies and asynchronous steps go on through
 * `after`. Answers once: after an abort or the first answer, further answers are dropped.
 */
export class AdminExchange extends Exchange {
  /** What the dashboard's handlers read, copied before the handler returns. */
  readonly request: AdminRequest;
  private readonly refused: Problem | null;
  private answered = false;

  constructor(
    private readonly host: AdminHost,
    private readonly pattern: string,
    private readonly run: (x: AdminExchange) => void,
    paramCount: number,
    res: HttpResponse,
    req: HttpRequest,
  ) {
    super(res, req);
    // Two Host or Content-Length fields (a body's length must be unambiguous), strictly as a serving thread refuses what it cannot forward here; then the Host check.
    this.refused = requestFramingProblem(req, true) ?? host.checkHost(req.getHeader('host'));
    const params: string[] = [];
    for (let i = 0; i < paramCount; i++) params.push(req.getParameter(i) ?? '');
    const header = (name: string): string | null => {
      const v = req.getHeader(name);
      return v === '' ? null : v;
    };
    const cookieHeader = header('cookie');
    this.request = {
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

  protected stages(): void {
    if (this.refused !== null) throw this.refused; // a misframed request's problem closes the connection (problem.ts)
    this.run(this);
  }

  /** The request body, collected from now (uWS hands chunks over only to a reader registered in the handler). */
  body(): Promise<Buffer> {
    const body = readBody(this.res);
    body.catch(() => {}); // a refused request may never look at its body
    return body;
  }

  private headers(more: HeaderList): HeaderList {
    return [...SECURITY_HEADERS, 'x-request-id', this.request.requestId, ...this.host.versionHeaders(), ...more];
  }

  /** A 200 (or other status) with a body of `contentType`. */
  send(status: number, contentType: string, body: string | Buffer, more: HeaderList = []): void {
    if (this.gone || this.answered) return;
    this.answered = true;
    send(this.res, { status, contentType, body, headers: this.headers(more) });
  }

  protected problemOf(error: unknown): Problem {
    return this.host.problemOf(error, this.pattern, this.request.requestId);
  }

  /** A problem: the security headers, the request id (also the body's `instance`), the data version. An oversized body closes rather than reads the rest. */
  protected answerProblem(problem: Problem): void {
    if (this.answered) return;
    this.answered = true;
    const close = problem.param === 'body';
    sendProblem(this.res, problem, {
      headers: this.headers([]),
      close,
      headOnly: this.request.method === 'head',
      instance: this.request.requestId,
    });
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
