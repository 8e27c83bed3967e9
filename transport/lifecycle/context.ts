// What every answer of one server shares: its options, its figures and logs, the headers every
// answer carries, the one mapping of a thrown value to a problem, and the requests in flight.

import { REFERENCE_PATHS } from '../docs/reference-page.js';
import { ASYNCAPI_PATH, STREAM_PATH } from '../stream/protocol.js';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { Dataset } from '../../engine/dataset/dataset.js';
import type { Plan } from '../../engine/plans.js';
import type { Guard, KeyState, Verdict } from '../guard/guard.js';
import { LimitsUnavailable } from '../guard/shared-limits.js';
import type { Encoding } from '../http/negotiate.js';
import { Cors } from '../http/cors.js';
import { answerIfOpen } from '../http/guarded-app.js';
import { requestIdOf } from '../http/request-id.js';
import type { AccessLog } from '../log.js';
import { NO_PLAN, RequestMetrics } from '../metrics/request-metrics.js';
import { Problem } from '../problem.js';
import { type HeaderBlock, headerBlock, type HeaderList, sendProblem } from '../respond.js';
import type { PoolUse, Route } from '../route.js';
import { routesFor } from '../routes/index.js';
import type { BodyPart } from '../serialise/assemble.js';
import { Caches } from '../caches/caches.js';
import type { Answer } from '../caches/response-cache.js';
import { StreamTurns } from './streamed-body.js';
import type { ServerLog, ServerOptions, ServerState } from '../server.js';

/** The route label of answers no route matched (404s). */
export const UNMATCHED = 'unmatched';
/** Paths served without a key, beside the API's routes. */
export const SERVICE_PATHS = [
  '/healthz',
  '/readyz',
  '/livez',
  '/version',
  '/metrics',
  '/api/v1/openapi.json',
  '/api/v1/schema.fbs',
  ASYNCAPI_PATH,
  ...REFERENCE_PATHS,
] as const;
export type ServicePath = (typeof SERVICE_PATHS)[number];

export const NO_CACHE = 'private, no-cache';

/** What an answer is observed by: its request's route label (index), key, start, time and id. */
export interface Observed {
  readonly routeIndex: number;
  readonly key: KeyState | null;
  /** performance.now() when the handler began. */
  readonly started: number;
  readonly nowMs: number;
  readonly requestId: string;
}

/** One server's shared part: made once by `startServer`, read by every answer. */
export class ServerContext {
  readonly guard: Guard;
  readonly state: ServerState;
  readonly now: () => number;
  readonly logger: ServerLog | null;
  readonly accessLog: AccessLog | null;
  readonly service: { version: string; commit: string };
  readonly meter: NonNullable<ServerOptions['meter']> | null;
  readonly cors: Cors;
  readonly vary: string;
  /** The API's routes, in the order of their metrics labels. */
  readonly routes: Route[];
  /** Every answer's route label: the API's patterns, the stream's upgrade, the service paths, and UNMATCHED. */
  readonly requests: RequestMetrics;
  /** The plan of a route that needs no key (none does today): internal's figures. */
  readonly keylessPlan: Plan;
  readonly pool: PoolUse | null;
  readonly deadlineMs: number;
  readonly busyPollMs: number;
  /** What the server keeps: per Dataset its answers and rendered rows, the as-of tables, and the collections they prompt. */
  readonly caches: Caches;
  private limitsLoggedAt = -Infinity;
  private spinUntil = 0;
  private spinning = false;
  private inFlight = 0;
  /** Requests still reading each Dataset after their handler returned (an asynchronous step): see `released`. */
  private readonly holds = new Map<Dataset, number>();
  private readonly releaseWaiters = new Map<Dataset, (() => void)[]>();
  private idleWaiters: (() => void)[] = [];
  /** The thread's streamed answers (exports): their turns, shared with each other and with every other request. */
  readonly turns: StreamTurns;
  /** Exports one key may have under way at once. */
  readonly exportsPerKey: number;

  constructor(options: ServerOptions) {
    this.guard = options.guard;
    this.state = options.state;
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? null;
    this.accessLog = options.accessLog ?? null;
    this.service = options.service ?? { version: 'unknown', commit: 'unknown' };
    this.meter = options.meter ?? null;
    this.cors = new Cors(options.corsOrigins ?? '*');
    this.vary = this.cors.vary;
    this.routes = routesFor(this.guard);
    this.requests = new RequestMetrics(
      [...this.routes.map((r) => r.pattern), STREAM_PATH, ...SERVICE_PATHS, UNMATCHED],
      this.guard.plans.names,
    );
    this.keylessPlan = this.guard.plans.builtIn('internal');
    this.pool = options.pool ?? null;
    this.deadlineMs = options.deadlineMs ?? 5000;
    this.busyPollMs = options.busyPollMs ?? 0;
    this.turns = new StreamTurns(options.exportStallMs);
    this.exportsPerKey = options.exportsPerKey ?? 4;
    this.caches = new Caches(options.caches);
    this.caches.collector.startIdleCollect();
  }

  serviceRoute(path: ServicePath): number {
    return this.requests.routeIndex(path);
  }

  /** The metrics route of a registered pattern (the dashboard's are counted as unmatched). */
  routeOfPattern(pattern: string): number {
    const index = this.requests.routes.indexOf(pattern);
    return index < 0 ? this.requests.routeIndex(UNMATCHED) : index;
  }

  /**
   * Every answer of request `x`, told to /metrics, the access log and (API routes) the
   * dashboard's meter. Nothing is allocated unless the access log is on.
   */
  observed(x: Observed, status: number, rows: number, body: string | Buffer | BodyPart[] | null): void {
    const { routeIndex: route, key, nowMs } = x;
    const ms = performance.now() - x.started;
    if (this.meter !== null && route < this.routes.length) this.meter.record(nowMs, ms, status);
    this.requests.record(route, status, key === null ? null : key.plan, rows, ms / 1000);
    if (this.accessLog !== null)
      this.accessLog.write({
        nowMs,
        requestId: x.requestId,
        route: this.requests.routes[route],
        status,
        plan: key === null ? NO_PLAN : key.plan.name,
        keyId: key === null ? null : key.id,
        rows,
        bytes: sizeOf(body),
        us: Math.round(ms * 1000),
      });
  }

  /**
   * The one mapping of a thrown value to the problem it answers: a Problem is itself, the
   * shared limits store failing is a 503, anything else a logged 500.
   */
  readonly problemOf = (error: unknown, route: string, requestId: string): Problem =>
    error instanceof Problem
      ? error
      : error instanceof LimitsUnavailable
        ? this.limitsUnavailable(error)
        : this.internalError(error, route, requestId);

  /** An unexpected exception: logged with its stack and request id, answered as a plain 500 problem. */
  internalError(error: unknown, route: string, requestId: string): Problem {
    const err = error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) };
    this.logger?.error({ request_id: requestId, route, err }, 'internal error');
    return new Problem('internal_error');
  }

  /** The shared limits store (Redis) did not answer: a limited key is refused, never served unlimited. Logged once a second at most. */
  private limitsUnavailable(error: LimitsUnavailable): Problem {
    const t = performance.now();
    if (t - this.limitsLoggedAt >= 1000)
      (this.limitsLoggedAt = t),
        this.logger?.error(
          { err: { message: error.message } },
          'limits unavailable: limited keys are refused 503 until the store answers',
        );
    return new Problem('limits_unavailable');
  }

  /**
   * The guard's answer to a handler that threw (http/guarded-app.ts): always a logged 500, even
   * for a thrown Problem (a handler answers its problems itself).
   */
  readonly onThrow = (error: unknown, res: HttpResponse, req: HttpRequest, pattern: string): void => {
    const started = performance.now();
    const requestId = requestIdOf(req.getHeader('x-request-id'));
    const problem = this.internalError(error, pattern, requestId);
    let body = '';
    const answered = answerIfOpen(
      res,
      () =>
        (body = sendProblem(res, problem, {
          headers: this.baseHeaders(requestId, this.state.dataset, null),
          close: true,
          instance: requestId,
        })),
    );
    const x = { routeIndex: this.routeOfPattern(pattern), key: null, started, nowMs: this.now(), requestId };
    if (answered) this.observed(x, 500, 0, body);
  };

  /**
   * Headers every answer carries: its request id, the data version it came from, CORS when
   * asked (`origin` null: an answer that never answers CORS). An answer with a CORS_ORIGINS
   * list varies by Origin; a negotiated 200 says so in its own Vary, so `vary` false leaves it out.
   */
  baseHeaders(requestId: string, dataset: Dataset | null, origin: string | null, vary = true): HeaderList {
    const headers: HeaderList = ['x-request-id', requestId];
    if (dataset !== null) headers.push('x-data-version', dataset.version);
    if (origin !== null) {
      this.cors.answer(origin, headers);
      if (vary) this.cors.varyOrigin(headers);
    }
    return headers;
  }

  /** The headers an answer's body fixes (type, version, ETag, caching, Link, encoding): one block, kept with a kept answer. */
  answerHead(a: Answer, version: string, etag: string, used: Encoding): HeaderBlock {
    const list: HeaderList = [
      'content-type',
      a.type,
      'x-data-version',
      version,
      'etag',
      etag,
      'cache-control',
      NO_CACHE,
      'vary',
      this.vary,
    ];
    if (a.link !== null) list.push('link', a.link);
    if (used !== 'identity') list.push('content-encoding', used);
    return headerBlock(list)!;
  }

  /** Rate and quota headers of an authenticated response (none for internal keys). */
  limitHeaders(headers: HeaderList, v: Verdict | null, quotaRemaining: number | null): HeaderList {
    if (v === null) return headers;
    if (v.rateLimit !== null)
      headers.push(
        'x-ratelimit-limit',
        String(v.rateLimit),
        'x-ratelimit-remaining',
        String(v.rateRemaining),
        'x-ratelimit-reset',
        String(v.rateReset),
      );
    if (v.quotaLimit !== null)
      headers.push(
        'x-quota-limit',
        String(v.quotaLimit),
        'x-quota-remaining',
        String(quotaRemaining ?? v.quotaRemaining),
      );
    return headers;
  }

  /** An API request arrived at `started`: the loop stays awake (busy polling) and the idle collection waits. */
  arrived(started: number): void {
    if (this.busyPollMs > 0) this.keepAwake(started);
    this.caches.collector.served(started);
  }

  private readonly spin = (): void => {
    if (performance.now() < this.spinUntil) setImmediate(this.spin);
    else this.spinning = false;
  };
  /** Keeps the loop polling for busyPollMs from `now` (the request's arrival: no second clock read). */
  private keepAwake(now: number): void {
    this.spinUntil = now + this.busyPollMs;
    if (!this.spinning) (this.spinning = true), setImmediate(this.spin);
  }

  /** One asynchronous step of a request begins: it holds its Dataset until `settled`. */
  hold(dataset: Dataset | null): void {
    this.inFlight++;
    if (dataset !== null) this.holds.set(dataset, (this.holds.get(dataset) ?? 0) + 1);
  }

  /** One asynchronous step of a request is over: wakes `idle()` waiters when none is left. */
  settled(dataset: Dataset | null): void {
    if (dataset !== null) {
      const left = this.holds.get(dataset)! - 1;
      if (left > 0) this.holds.set(dataset, left);
      else {
        this.holds.delete(dataset);
        for (const done of this.releaseWaiters.get(dataset) ?? []) done();
        this.releaseWaiters.delete(dataset);
      }
    }
    if (--this.inFlight > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const done of waiters) done();
  }

  /** Resolves once no asynchronous request is in flight (RunningServer.idle). */
  idle(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise<void>((done) => this.idleWaiters.push(done));
  }

  /** Resolves once no request reads `dataset` any longer (RunningServer.released). */
  released(dataset: Dataset): Promise<void> {
    return this.holds.has(dataset)
      ? new Promise<void>((done) =>
          this.releaseWaiters.set(dataset, [...(this.releaseWaiters.get(dataset) ?? []), done]),
        )
      : Promise.resolve();
  }
}

/** A body's size in bytes (for the access log only: a string body is measured by encoding it). */
const sizeOf = (body: string | Buffer | BodyPart[] | null): number =>
  body === null
    ? 0
    : typeof body === 'string'
      ? Buffer.byteLength(body)
      : Array.isArray(body)
        ? body.reduce((n, part) => n + sizeOf(part), 0)
        : body.length;
