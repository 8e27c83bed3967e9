// The HTTP server on uWebSockets.js: routes, key check, limits, parameters, negotiation,
// conditional requests, CORS, serialisation.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Registry } from 'prom-client';
import uWS, { type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';
import type { Dataset } from '../engine/dataset/dataset.js';
import type { Plan } from '../engine/plans.js';
import { FORMAT_OF, type Format } from './answers/formats/index.js';
import type { Guard, KeyState, Verdict } from './guard/guard.js';
import { LimitsUnavailable } from './guard/shared-limits.js';
import { contentEtag, etagOf, noneMatch } from './http/conditional.js';
import { Cors } from './http/cors.js';
import { type Encoding, negotiateEncoding, negotiateFormat, NO_FORMAT } from './http/negotiate.js';
import { framingProblem, requestFramingProblem } from './http/framing.js';
import { answerIfOpen, guardHandlers } from './http/guarded-app.js';
import { requestIdOf } from './http/request-id.js';
import type { AccessLog } from './log.js';
import type { MetricsSources } from './metrics/exposition.js';
import { NO_PLAN, RequestMetrics, type RequestStorage } from './metrics/request-metrics.js';
import { decode } from './params/query-string.js';
import { Problem } from './problem.js';
import {
  type HeaderBlock,
  headerBlock,
  type HeaderList,
  JSON_TYPE,
  send,
  sendBlock,
  sendEmpty,
  sendProblem,
} from './respond.js';
import { parseRequest, type PoolUse, type Reply, type Route } from './route.js';
import { routesFor } from './routes/index.js';
import { SCHEMAS } from './schemas/responses.js';
import { assemble, type BodyPart } from './serialise/assemble.js';
import { compileJson } from './serialise/compile-json.js';
import { compress, MIN_COMPRESSED_BYTES } from './serialise/encode.js';
import { render } from './serialise/render.js';
import {
  type Answer,
  type CachedAnswer,
  DEFAULT_RESPONSE_CACHE,
  ENCODING_SLOTS,
  type ResponseCache,
  type ResponseCacheOptions,
  responseCacheOf,
} from './serialise/response-cache.js';
import { FLATBUFFERS_SCHEMA_PATH } from './serialise/to-flatbuffers.js';
import { fullGc } from './threads/full-gc.js';

/** What the server serves from; main.ts owns it and swaps `dataset` on reload. */
export interface ServerState {
  dataset: Dataset | null;
  draining: boolean;
}

export interface ServerOptions {
  host: string;
  port: number;
  guard: Guard;
  state: ServerState;
  /** The OpenAPI document's JSON text, served at /api/v1/openapi.json without a key (a function: made at the first request). */
  openapi?: string | (() => string);
  now?: () => number;
  /** Where the server's own lines go (a pino logger in main.ts); none by default. */
  logger?: ServerLog | null;
  /** One access line per answer (ACCESS_LOG): route, status, plan, key id, rows, bytes, µs, request id. */
  accessLog?: AccessLog | null;
  /** GET /metrics (Prometheus text) reading these besides the server's own figures; null: no /metrics. */
  metrics?: Omit<MetricsSources, 'requests' | 'answerCache' | 'dataVersion' | 'service'> | null;
  /** What /version and the build_info metric tell. */
  service?: { version: string; commit: string };
  /** Longest an asynchronous (pool) request may take before a 503 answers it (default 5000 ms). */
  deadlineMs?: number;
  /** Worker pool for screens and as-of tables of large enough markets. */
  pool?: PoolUse | null;
  /** Told of every API answer (time, latency in ms, status): typed-array counters, no allocation. */
  meter?: { record(nowMs: number, ms: number, status: number): void } | null;
  /** Whole-answer cache per Dataset (default DEFAULT_RESPONSE_CACHE); null: none. */
  responseCache?: ResponseCacheOptions | null;
  /** CORS_ORIGINS: `*` (default) or a comma list of origins allowed to call the API from a browser. */
  corsOrigins?: string;
  /**
   * Busy polling: for this long after an API request the event loop does not sleep (an
   * immediate re-queues itself, so libuv polls without waiting). Requests arriving within
   * the window then skip the wake-up of an idle core, which on a virtual machine reaches
   * milliseconds at p99; the price is a busy core while requests keep coming. 0: off.
   */
  busyPollMs?: number;
  /** Registers more routes (the dashboard's /dashboard and /admin/api) before the catch-all 404. */
  mount?: ((app: TemplatedApp) => void) | null;
  /**
   * One of several serving threads on this port (THREADS): listens with SO_REUSEPORT, so the
   * kernel spreads connections over the threads. Off: the port is this server's alone.
   */
  sharedPort?: boolean;
  /** Also listen on a free loopback port (`forwardPort`), where the other serving threads forward the dashboard and /metrics. */
  forwardListen?: boolean;
  /** The other serving threads' figures (their shared counters), summed into /metrics. */
  peerRequests?: (() => RequestStorage[]) | null;
}

/** The part of a pino logger the server writes to: JSON fields, then the message. */
export interface ServerLog {
  info(fields: object, msg: string): void;
  error(fields: object, msg: string): void;
}

export interface RunningServer {
  port: number;
  /** Stops listening; open connections stay until they close or the process exits. */
  close(): void;
  /** Closes every connection too (a serving thread ending: its event loop must hold no socket when it is torn down). */
  closeAll(): void;
  /** Resolves once no asynchronous request is in flight (at once if none is). */
  idle(): Promise<void>;
  /**
   * Resolves once no request of this server reads `dataset` any longer (at once if none does):
   * a request answered synchronously is done when its handler returns; one waiting on the pool
   * or Redis holds its Dataset until it is answered. Ask after the served Dataset was replaced.
   */
  released(dataset: Dataset): Promise<void>;
  /** Answers counted by route, status and plan (what /metrics exposes; the dashboard's usage page reads `cells()`). */
  readonly requests: RequestMetrics;
  /** The loopback port of `forwardListen`, else null. */
  readonly forwardPort: number | null;
}

/** uWS quietly falls back to a slow pure-JS server when its binary does not load: refuse that. */
export function assertNativeUws(): void {
  const require = createRequire(import.meta.url);
  require('uWebSockets.js');
  if (!Object.keys(require.cache).some((path) => /[\\/]binaries[\\/]uws_[^\\/]+\.node$/.test(path))) {
    throw new Error(
      'uWebSockets.js did not load its native binary (it fell back to its JavaScript implementation); refusing to start',
    );
  }
}

/** Stands for two different keys (X-API-Key twice, or it and a Bearer token): no key at all. */
const AMBIGUOUS_KEY = '\u0000ambiguous';

/** The request headers the API reads, gathered in one pass over them (uWS's getHeader sees only the first of duplicates). */
const incoming = {
  key: null as string | null,
  accept: '',
  acceptEncoding: '',
  ifNoneMatch: '',
  origin: '',
  requestId: '',
  hosts: 0,
  lengths: 0,
};

const presentKey = (value: string): void => {
  incoming.key = incoming.key !== null && incoming.key !== value ? AMBIGUOUS_KEY : value;
};
/** Repeated list headers are one list (RFC 9110 §5.3). */
const joined = (had: string, value: string): string => (had === '' ? value : `${had}, ${value}`);

/** One hoisted callback: no closure made per request. */
function readHeader(name: string, value: string): void {
  switch (name) {
    case 'x-api-key':
      presentKey(value);
      break;
    case 'authorization':
      if (value.length > 7 && value.slice(0, 7).toLowerCase() === 'bearer ') presentKey(value.slice(7).trim());
      break;
    case 'accept':
      incoming.accept = joined(incoming.accept, value);
      break;
    case 'accept-encoding':
      incoming.acceptEncoding = joined(incoming.acceptEncoding, value);
      break;
    case 'if-none-match':
      incoming.ifNoneMatch = joined(incoming.ifNoneMatch, value);
      break;
    case 'origin':
      incoming.origin = value;
      break;
    case 'x-request-id':
      incoming.requestId = value;
      break;
    case 'host':
      incoming.hosts++;
      break;
    case 'content-length':
      incoming.lengths++;
      break;
  }
}

function readHeaders(req: HttpRequest): typeof incoming {
  incoming.key = null;
  incoming.accept = incoming.acceptEncoding = incoming.ifNoneMatch = incoming.origin = incoming.requestId = '';
  incoming.hosts = incoming.lengths = 0;
  req.forEach(readHeader);
  return incoming;
}

function unauthorizedDetail(presented: string | null): string {
  if (presented === null || presented === '') return 'no key: send X-API-Key or Authorization: Bearer';
  return presented === AMBIGUOUS_KEY
    ? 'two different keys were sent (X-API-Key and/or Authorization)'
    : 'the key is invalid or disabled';
}

/** The decoded name of one `name=value` part of a query string that parsed (so it decodes). */
function queryName(part: string): string {
  const eq = part.indexOf('=');
  return decode(eq < 0 ? part : part.slice(0, eq), 'query');
}

/** `Link: <path?query with offset moved on>; rel="next"` (RFC 8288) while rows remain after this page. */
function nextLink(
  path: string,
  rawQuery: string,
  page: { offset: number; count: number; total: number },
): string | null {
  const next = page.offset + page.count;
  if (page.count === 0 || next >= page.total) return null;
  // Names compared decoded: `%6Fffset=2` is offset too, and kept it would make the next request name offset twice (a 400).
  const kept = rawQuery.split('&').filter((part) => part !== '' && queryName(part) !== 'offset');
  kept.push(`offset=${next}`);
  return `<${path}?${kept.join('&')}>; rel="next"`;
}

const NO_CACHE = 'private, no-cache';
const healthJson = compileJson(SCHEMAS.health);

/** A body as one run of bytes (a view of the reused assembly buffer for pieces: valid until the next assembly). */
const bytesOf = (body: string | Buffer | BodyPart[]): Buffer =>
  typeof body === 'string' ? Buffer.from(body) : Array.isArray(body) ? assemble(body) : body;

/**
 * No `uWebSockets: 20` field on answers: uWS.js's switch for its loop's `noMark` (the build has no
 * other), set per thread since each serving thread runs its own loop.
 */
export function silenceVersionMark(): void {
  (uWS as unknown as { _cfg(key: string): void })._cfg('999999990007');
}

export function startServer(options: ServerOptions): Promise<RunningServer> {
  assertNativeUws();
  silenceVersionMark();
  const { guard, state } = options;
  const now = options.now ?? Date.now;
  const logger = options.logger ?? null;
  const accessLog = options.accessLog ?? null;
  const service = options.service ?? { version: 'unknown', commit: 'unknown' };
  // Every handler registered below (the dashboard's and the forwarded paths' too) throws into one guard: a logged 500.
  const app: TemplatedApp = guardHandlers(uWS.App(), (error, res, req, pattern) => {
    const started = performance.now();
    const requestId = requestIdOf(req.getHeader('x-request-id'));
    const problem = internalError(error, pattern, requestId);
    let body = '';
    const answered = answerIfOpen(
      res,
      () => (body = sendProblem(res, problem, baseHeaders(requestId, state.dataset, null), true, false, requestId)),
    );
    if (answered) observed(routeOfPattern(pattern), 500, null, 0, body, started, now(), requestId);
  });
  const meter = options.meter ?? null;
  const cors = new Cors(options.corsOrigins ?? '*');
  const routes = routesFor(guard);
  /** Every answer's route label: the API's patterns, the service paths, and UNMATCHED. */
  const requests = new RequestMetrics(
    [...routes.map((r) => r.pattern), ...SERVICE_PATHS, UNMATCHED],
    guard.plans.names,
  );
  /** The plan of a route that needs no key (none does today): internal's figures. */
  const keylessPlan = guard.plans.builtIn('internal');
  const serviceRoute = (path: (typeof SERVICE_PATHS)[number]): number => requests.routeIndex(path);
  /** The metrics route of a registered pattern (the dashboard's are counted as unmatched). */
  const routeOfPattern = (pattern: string): number => {
    const index = requests.routes.indexOf(pattern);
    return index < 0 ? requests.routeIndex(UNMATCHED) : index;
  };

  /**
   * Every answer, told to /metrics, the access log and (API routes) the dashboard's meter.
   * Nothing is allocated unless the access log is on.
   */
  function observed(
    route: number,
    status: number,
    key: KeyState | null,
    rows: number,
    body: string | Buffer | BodyPart[] | null,
    started: number,
    nowMs: number,
    requestId: string,
  ): void {
    const ms = performance.now() - started;
    if (meter !== null && route < routes.length) meter.record(nowMs, ms, status);
    requests.record(route, status, key === null ? null : key.plan, rows, ms / 1000);
    if (accessLog !== null)
      accessLog.write(
        nowMs,
        requestId,
        requests.routes[route],
        status,
        key === null ? NO_PLAN : key.plan.name,
        key === null ? null : key.id,
        rows,
        sizeOf(body),
        Math.round(ms * 1000),
      );
  }

  /** An unexpected exception: logged with its stack and request id, answered as a plain 500 problem. */
  function internalError(error: unknown, route: string, requestId: string): Problem {
    const err = error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) };
    logger?.error({ request_id: requestId, route, err }, 'internal error');
    return new Problem('internal_error');
  }
  const vary = cors.vary;

  let limitsLoggedAt = -Infinity;
  /** The shared limits store (Redis) did not answer: a limited key is refused, never served unlimited. Logged once a second at most. */
  function limitsUnavailable(error: LimitsUnavailable): Problem {
    const t = performance.now();
    if (t - limitsLoggedAt >= 1000)
      (limitsLoggedAt = t),
        logger?.error(
          { err: { message: error.message } },
          'limits unavailable: limited keys are refused 503 until the store answers',
        );
    return new Problem('limits_unavailable');
  }

  /**
   * Headers every answer carries: its request id, the data version it came from, CORS when
   * asked (`origin` null: an answer that never answers CORS). An answer with a CORS_ORIGINS
   * list varies by Origin; a negotiated 200 says so in its own Vary, so `vary` false leaves it out.
   */
  function baseHeaders(requestId: string, dataset: Dataset | null, origin: string | null, vary = true): HeaderList {
    const headers: HeaderList = ['x-request-id', requestId];
    if (dataset !== null) headers.push('x-data-version', dataset.version);
    if (origin !== null) {
      cors.answer(origin, headers);
      if (vary) cors.varyOrigin(headers);
    }
    return headers;
  }

  /** The headers an answer's body fixes (type, version, ETag, caching, Link, encoding): one block, kept with a kept answer. */
  function answerHead(a: Answer, version: string, etag: string, used: Encoding): HeaderBlock {
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
      vary,
    ];
    if (a.link !== null) list.push('link', a.link);
    if (used !== 'identity') list.push('content-encoding', used);
    return headerBlock(list)!;
  }

  /** Rate and quota headers of an authenticated response (none for internal keys). */
  function limitHeaders(headers: HeaderList, v: Verdict | null, quotaRemaining: number | null): HeaderList {
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

  const cacheOptions = options.responseCache === undefined ? DEFAULT_RESPONSE_CACHE : options.responseCache;
  /** A WeakMap lookup, not a remembered reference: an old Dataset must stay collectable after a reload. */
  const cacheOf = (dataset: Dataset): ResponseCache | null =>
    cacheOptions === null ? null : responseCacheOf(dataset, cacheOptions);

  const busyPollMs = options.busyPollMs ?? 0;
  let spinUntil = 0;
  let spinning = false;
  const spin = (): void => {
    if (performance.now() < spinUntil) setImmediate(spin);
    else spinning = false;
  };
  /** Keeps the loop polling for busyPollMs from now. */
  const keepAwake = (): void => {
    spinUntil = performance.now() + busyPollMs;
    if (!spinning) (spinning = true), setImmediate(spin);
  };

  // A collection once requests stop: the garbage of the last requests (bodies, compressed copies,
  // dropped as-of tables) and the room V8's heap grew to otherwise stay however long the server
  // then idles, since only allocation prompts V8 to collect. Asked once per quiet spell, after
  // enough requests that it is worth a major GC (tens of ms, mostly off the serving thread).
  let servedSinceCollect = 0;
  let lastServed = 0;
  const collect = fullGc();
  const quiet = setInterval(() => {
    if (servedSinceCollect >= IDLE_COLLECT_REQUESTS && performance.now() - lastServed >= IDLE_COLLECT_MS)
      (servedSinceCollect = 0), collect();
  }, IDLE_COLLECT_MS);
  quiet.unref();

  let inFlight = 0;
  /** Requests still reading each Dataset after their handler returned (an asynchronous step): see `released`. */
  const holds = new Map<Dataset, number>();
  const releaseWaiters = new Map<Dataset, (() => void)[]>();
  const hold = (dataset: Dataset | null): void => {
    inFlight++;
    if (dataset !== null) holds.set(dataset, (holds.get(dataset) ?? 0) + 1);
  };
  let idleWaiters: (() => void)[] = [];
  const deadlineMs = options.deadlineMs ?? 5000;
  /** One asynchronous step of a request is over: wakes `idle()` waiters when none is left. */
  const settled = (dataset: Dataset | null): void => {
    if (dataset !== null) {
      const left = holds.get(dataset)! - 1;
      if (left > 0) holds.set(dataset, left);
      else {
        holds.delete(dataset);
        for (const done of releaseWaiters.get(dataset) ?? []) done();
        releaseWaiters.delete(dataset);
      }
    }
    if (--inFlight > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const done of waiters) done();
  };

  function serve(route: Route, routeIndex: number, paged: boolean, res: HttpResponse, req: HttpRequest): void {
    if (busyPollMs > 0) keepAwake();
    // Everything is read from `req` now: it is gone once this function returns.
    const nowMs = now();
    const started = performance.now();
    servedSinceCollect++;
    lastServed = started;
    const rawQuery = req.getQuery() ?? '';
    const rawParams = route.pathNames.map((_, i) => req.getParameter(i));
    let path = ''; // read below only when the answer is not kept: only a fresh answer makes its Link
    const h = readHeaders(req);
    const misframed = framingProblem(h);
    const presented = route.auth ? h.key : null;
    const { ifNoneMatch, origin } = h;
    const requestId = requestIdOf(h.requestId);
    const acceptFormat = negotiateFormat(h.accept);
    const encoding = negotiateEncoding(h.acceptEncoding);
    const dataset = state.dataset; // this request's Dataset to the end, whatever a reload swaps in
    let key: KeyState | null = null;
    let verdict: Verdict | null = null;
    let cache: ResponseCache | null = null;
    let cacheKey = '';
    let requestKey = '';
    /** True until this function returns: uWS corks a handler's own writes, later ones must cork (respond.ts). */
    let synchronous = true;
    /** The client left while an asynchronous step ran: `res` must not be touched again. */
    let gone = false;
    let onGone: (() => void) | null = null;
    let watching = false;
    /** uWS needs onAborted before a handler returns without answering; one handler per request. */
    const watch = (then: (() => void) | null): void => {
      onGone = then;
      if (!watching) (watching = true), res.onAborted(() => ((gone = true), onGone?.()));
    };

    const fail = (error: unknown, figures: Verdict | null): void => {
      const problem =
        error instanceof Problem
          ? error
          : error instanceof LimitsUnavailable
            ? limitsUnavailable(error)
            : internalError(error, route.pattern, requestId);
      const remaining = key === null ? null : guard.charge(key, 0, nowMs);
      // Connection: close while draining, and after a problem whose code always closes (a misframed request).
      const body = sendProblem(
        res,
        problem,
        limitHeaders(baseHeaders(requestId, dataset, origin), figures, remaining),
        state.draining,
        false,
        requestId,
      );
      observed(routeIndex, problem.status, key, 0, body, started, nowMs, requestId);
    };

    /**
     * 304 when If-None-Match names `etag`, else 200 with `body` in encoding `used`; the 304
     * charges no rows. A kept answer (`a` is the cache's) keeps its header block per encoding.
     */
    const answer = (
      a: Answer | CachedAnswer,
      body: Answer['body'],
      used: Encoding,
      etag: string,
      figures: Verdict | null,
    ): void => {
      const notModified = ifNoneMatch !== '' && noneMatch(ifNoneMatch, etag);
      const rows = notModified ? 0 : a.rows;
      if (key !== null && rows > 0 && guard.isShared(key))
        return answerCharged(a, body, used, etag, figures, notModified, rows);
      const remaining = key === null ? null : guard.charge(key, rows, nowMs);
      sendAnswer(a, body, used, etag, figures, notModified, remaining);
    };

    const sendAnswer = (
      a: Answer | CachedAnswer,
      body: Answer['body'],
      used: Encoding,
      etag: string,
      figures: Verdict | null,
      notModified: boolean,
      remaining: number | null,
    ): void => {
      const headers = limitHeaders(baseHeaders(requestId, null, origin, false), figures, remaining);
      if (!notModified) {
        // A kept answer keeps its block per encoding, as bytes of its own counted by its cache.
        const slot = ENCODING_SLOTS[used];
        const head =
          'heads' in a
            ? (a.heads[slot] ?? cache!.keepHead(a, slot, answerHead(a, dataset!.version, etag, used)))
            : answerHead(a, dataset!.version, etag, used);
        sendBlock(res, 200, head, body, headers, state.draining, false, synchronous);
        return observed(routeIndex, 200, key, a.rows, body, started, nowMs, requestId);
      }
      headers.push('x-data-version', dataset!.version, 'etag', etag, 'cache-control', NO_CACHE, 'vary', vary);
      if (a.link !== null) headers.push('link', a.link);
      sendEmpty(res, 304, headers, state.draining);
      observed(routeIndex, 304, key, 0, null, started, nowMs, requestId);
    };

    /**
     * Shared limits: the rows reach the shared store before the answer leaves, so the key's
     * next request on any instance sees them. The body is copied first: a joined body is a
     * view of the reused assembly buffer, which the next answer overwrites.
     */
    const answerCharged = (
      a: Answer | CachedAnswer,
      body: Answer['body'],
      used: Encoding,
      etag: string,
      figures: Verdict | null,
      notModified: boolean,
      rows: number,
    ): void => {
      const kept = typeof body === 'string' ? body : Buffer.from(bytesOf(body));
      watch(null);
      hold(dataset);
      guard
        .chargeShared(key!, rows, nowMs)
        .then(
          (remaining) => gone || sendAnswer(a, kept, used, etag, figures, notModified, remaining),
          (error: unknown) => gone || fail(error, figures),
        )
        .finally(() => settled(dataset));
    };

    const finish = (reply: Reply, format: Format, figures: Verdict | null): void => {
      const rendered = render(reply, format);
      const link = reply.page === undefined ? null : nextLink(path, rawQuery, reply.page);
      const tag = route.cacheable ? `${dataset!.version}\n${requestKey}\n${format}` : null;
      const fresh: Answer = { rows: reply.rows, type: rendered.type, link, body: rendered.body, format, tag };
      const kept = cache === null ? null : cache.offer(cacheKey, fresh);
      if (kept !== null) return answerKept(cache!, kept, figures);
      // Bytes are joined here only when they must be read: to compress them, or to tag them by content (/quota).
      let body = encoding !== 'identity' || tag === null ? bytesOf(rendered.body) : rendered.body;
      let used: Encoding = 'identity';
      if (encoding !== 'identity' && (body as Buffer).length >= MIN_COMPRESSED_BYTES)
        (body = compress(body as Buffer, encoding)), (used = encoding);
      const etag = tag !== null ? etagOf(tag, used) : contentEtag(body as Buffer, used);
      answer(fresh, body, used, etag, figures);
    };

    const answerKept = (c: ResponseCache, kept: CachedAnswer, figures: Verdict | null): void => {
      const { body, encoding: used } = c.encoded(kept, encoding);
      const slot = ENCODING_SLOTS[used];
      const etag = (kept.etags[slot] ??= etagOf(kept.tag!, used));
      answer(kept, body, used, etag, figures);
    };

    try {
      if (misframed !== null) throw misframed;
      if (dataset === null) throw new Problem('not_ready');
      if (state.draining) throw new Problem('shutting_down');
      if (route.auth) {
        key = guard.authenticate(presented);
        if (key === null) throw new Problem('unauthorized', unauthorizedDetail(presented));
        if (guard.isShared(key)) {
          const hit = kept(key.plan);
          return hit === undefined ? admitShared(key, paged ? req.getUrl() : '') : admitKept(key, hit);
        }
        verdict = guard.admit(key, nowMs, route.charges); // a reused object: read before any other admit
      }
      proceed(verdict);
    } catch (error) {
      fail(error, verdict);
    } finally {
      synchronous = false;
    }

    /** A 429 when the verdict refuses. */
    function refuseIf(v: Verdict | null): void {
      if (v !== null && !v.ok) throw new Problem(v.code!, undefined, { retryAfter: v.retryAfter });
    }

    /** The kept answer of this request, if any (sets the cache keys a fresh answer is offered under). */
    function kept(plan: Plan): CachedAnswer | undefined {
      if (!route.cacheable || requestKey !== '') return undefined;
      // The plan is in the key, by name and the figures that shape answers: it clamps limits and bounds batches. So is the format Accept asks for.
      requestKey = `${route.pattern} ${plan.answerKey} ${rawParams.join('/')}?${rawQuery}`;
      if ((cache = cacheOf(dataset!)) === null) return undefined;
      cacheKey = `${acceptFormat} ${requestKey}`;
      return cache.get(cacheKey);
    }

    /** Everything after the key check: refusal, kept answer, parameters, the route's work, the answer. */
    function proceed(figures: Verdict | null): void {
      refuseIf(figures);
      const plan = key?.plan ?? keylessPlan;
      const hit = kept(plan);
      if (hit !== undefined) return answerKept(cache!, hit, figures);
      if (paged && path === '') path = req.getUrl();
      const { params, query, p } = parseRequest(route, dataset!, rawParams, rawQuery);
      const format = (p.format as Format | null) ?? acceptFormat;
      if (format === null) throw new Problem('not_acceptable', NO_FORMAT);
      const refusal = FORMAT_OF[format].refusal(route.shape); // e.g. CSV of an answer without rows
      if (refusal !== null) throw new Problem('not_acceptable', refusal);
      let abort: AbortController | null = null;
      const signal = route.mayAnswerLater ? (): AbortSignal => (abort ??= new AbortController()).signal : null;
      const reply = route.handle(
        { dataset: dataset!, params, query, key, plan, nowMs, signal, pool: options.pool ?? null },
        p as never,
      );
      if (!(reply instanceof Promise)) return finish(reply, format, figures);
      answerLater(reply, format, figures === null ? null : { ...figures }, () =>
        (abort as AbortController | null)?.abort(),
      );
    }

    /**
     * Shared limits and a kept answer: its rows are known, so the admit charges them in the
     * same round trip, and the answer leaves when the store has counted them.
     */
    function admitKept(limited: KeyState, hit: CachedAnswer): void {
      const { body, encoding: used } = cache!.encoded(hit, encoding);
      const etag = (hit.etags[ENCODING_SLOTS[used]] ??= etagOf(hit.tag!, used));
      const notModified = ifNoneMatch !== '' && noneMatch(ifNoneMatch, etag);
      const rows = notModified ? 0 : hit.rows;
      watch(null);
      hold(dataset);
      guard
        .admitShared(limited, nowMs, route.charges, rows)
        .then(
          (v) => {
            if (gone) return;
            verdict = v;
            try {
              refuseIf(v);
              sendAnswer(
                hit,
                body,
                used,
                etag,
                v,
                notModified,
                v.quotaRemaining === null ? null : Math.max(0, v.quotaRemaining - rows),
              );
            } catch (error) {
              fail(error, v);
            }
          },
          (error: unknown) => gone || fail(error, null),
        )
        .finally(() => settled(dataset));
    }

    /**
     * Shared limits: the admit is a round trip to the shared store, and the rest of the
     * request runs when it answers (`req` is gone by then: the path was read before).
     */
    function admitShared(limited: KeyState, url: string): void {
      path = url;
      watch(null);
      hold(dataset);
      guard
        .admitShared(limited, nowMs, route.charges)
        .then(
          (v) => {
            if (gone) return;
            verdict = v;
            try {
              proceed(v);
            } catch (error) {
              fail(error, v);
            }
          },
          (error: unknown) => gone || fail(error, null),
        )
        .finally(() => settled(dataset));
    }

    /** The async path (pool work): abort handler first, a deadline, then cork → send once. */
    function answerLater(pending: Promise<Reply>, format: Format, figures: Verdict | null, abort: () => void): void {
      let answered = false;
      hold(dataset);
      watch(() => {
        answered = true; // the client left: never touch `res` again
        abort();
      });
      const timer = setTimeout(() => {
        if (answered) return;
        answered = true;
        abort();
        fail(new Problem('deadline_exceeded', `the request took longer than ${deadlineMs} ms`), figures);
      }, deadlineMs);
      pending
        .then(
          (reply) => {
            if (answered) return;
            answered = true;
            try {
              finish(reply, format, figures);
            } catch (error) {
              fail(error, figures); // e.g. a serialiser refusing the value: still one answer
            }
          },
          (error: unknown) => {
            if (!answered) (answered = true), fail(error, figures);
          },
        )
        .finally(() => {
          clearTimeout(timer);
          settled(dataset);
        });
    }
  }

  /** Answers that read no Dataset (405, 404, health, documents): request id, the version served now, CORS off the dashboard. */
  const plainHeaders = (req: HttpRequest, withCors: boolean): { headers: HeaderList; requestId: string } => {
    const requestId = requestIdOf(req.getHeader('x-request-id'));
    return { headers: baseHeaders(requestId, state.dataset, withCors ? req.getHeader('origin') : null), requestId };
  };
  /** /metrics refuses what a serving thread could not forward to this one (http/framing.ts), whichever thread it reaches. */
  const strictFraming = (route: number): boolean => requests.routes[route] === '/metrics';
  /** A handler answering without a key: `make` gives the 200 body or a problem. */
  const plain =
    (route: number, withCors: boolean, make: (req: HttpRequest) => Problem | { type: string; body: string }) =>
    (res: HttpResponse, req: HttpRequest): void => {
      const started = performance.now();
      const nowMs = now();
      const { headers, requestId } = plainHeaders(req, withCors);
      const misframed = requestFramingProblem(req, strictFraming(route));
      const made = misframed ?? make(req);
      const headOnly = req.getMethod() === 'head';
      if (made instanceof Problem) {
        const body = sendProblem(res, made, headers, state.draining, headOnly, requestId);
        return observed(route, made.status, null, 0, body, started, nowMs, requestId);
      }
      send(res, 200, made.type, made.body, headers, state.draining, headOnly);
      observed(route, 200, null, 0, made.body, started, nowMs, requestId);
    };
  const notAllowed = (route: number, allow: string) =>
    plain(route, true, () => new Problem('method_not_allowed', `only ${allow} is served`, { allow }));
  const preflight =
    (route: number) =>
    (res: HttpResponse, req: HttpRequest): void => {
      const started = performance.now();
      const { headers, requestId } = plainHeaders(req, false);
      const misframed = requestFramingProblem(req, strictFraming(route));
      if (misframed !== null)
        return observed(
          route,
          misframed.status,
          null,
          0,
          sendProblem(res, misframed, headers, false, false, requestId),
          started,
          now(),
          requestId,
        );
      headers.push('allow', 'GET, OPTIONS');
      cors.preflight(req.getHeader('origin'), headers);
      sendEmpty(res, 204, headers);
      observed(route, 204, null, 0, null, started, now(), requestId);
    };
  /** GET (and OPTIONS) of a path needing no key; any other method is a 405. */
  const servePlain = (
    pattern: (typeof SERVICE_PATHS)[number],
    withCors: boolean,
    make: (req: HttpRequest) => Problem | { type: string; body: string },
  ): void => {
    const route = serviceRoute(pattern);
    app.get(pattern, plain(route, withCors, make));
    app.options(pattern, preflight(route));
    app.any(pattern, notAllowed(route, 'GET, OPTIONS'));
  };

  for (const route of routes) {
    const index = requests.routeIndex(route.pattern);
    app.get(route.pattern, (res, req) => serve(route, index, route.paged === true, res, req));
    app.options(route.pattern, preflight(index));
    app.any(route.pattern, notAllowed(index, 'GET, OPTIONS'));
  }
  /** Ready: a snapshot is loaded and the server is not draining (503 otherwise, with Retry-After). */
  const readiness = (): Problem | { type: string; body: string } => {
    if (state.draining) return new Problem('shutting_down');
    if (state.dataset === null) return new Problem('not_ready');
    return { type: JSON_TYPE, body: healthJson({ status: 'ok', data_version: state.dataset.version }) };
  };
  servePlain('/healthz', true, readiness);
  servePlain('/readyz', true, readiness);
  servePlain('/livez', true, () => ({ type: JSON_TYPE, body: LIVE_BODY }));
  servePlain('/version', true, () => ({
    type: JSON_TYPE,
    body: JSON.stringify({
      version: service.version,
      commit: service.commit,
      node: process.version,
      data_version: state.dataset?.version ?? null,
    }),
  }));
  const peers = options.peerRequests ?? null;
  /** This thread's figures, or every serving thread's. */
  const figures =
    peers === null
      ? requests
      : { cells: () => requests.combined(peers()).cells(), latencies: () => requests.combined(peers()).latencies() };
  if (options.metrics != null) {
    const sources: MetricsSources = {
      ...options.metrics,
      requests: figures,
      service,
      dataVersion: () => state.dataset?.version ?? null,
      answerCache: cacheFigures,
    };
    // prom-client is loaded beside the start (50 ms of imports), not before it: ready by the first scrape.
    mountMetrics(import('./metrics/exposition.js').then((m) => m.metricsRegistry(sources)));
  }
  const openapi = options.openapi;
  if (openapi !== undefined) {
    let document: string | null = typeof openapi === 'string' ? openapi : null;
    servePlain('/api/v1/openapi.json', true, () => ({
      type: JSON_TYPE,
      body: (document ??= (openapi as () => string)()),
    }));
  }
  const fbs = readFileSync(FLATBUFFERS_SCHEMA_PATH, 'utf8');
  servePlain('/api/v1/schema.fbs', true, () => ({ type: 'text/plain; charset=utf-8', body: fbs }));
  options.mount?.(app); // more routes (the dashboard's) before the catch-all 404
  const unmatched = requests.routeIndex(UNMATCHED);
  app.any('/*', (res, req) => {
    const url = req.getUrl();
    plain(
      unmatched,
      url.startsWith('/api/'),
      () => new Problem('not_found', `no route for ${req.getMethod().toUpperCase()} ${url}`),
    )(res, req);
  });

  /** The answer cache of the data version served now, for /metrics. */
  function cacheFigures(): { hits: number; misses: number; entries: number; bytes: number } {
    const cache = state.dataset === null ? null : cacheOf(state.dataset);
    return cache === null
      ? { hits: 0, misses: 0, entries: 0, bytes: 0 }
      : { hits: cache.hits, misses: cache.misses, ...cache.stats };
  }

  /** GET /metrics: the exposition is written asynchronously (prom-client), so the answer corks once it is ready. */
  function mountMetrics(registered: Promise<Registry>): void {
    const route = serviceRoute('/metrics');
    app.get('/metrics', (res, req) => {
      const started = performance.now();
      const { headers, requestId } = plainHeaders(req, false);
      const misframed = requestFramingProblem(req, true);
      if (misframed !== null)
        return observed(
          route,
          misframed.status,
          null,
          0,
          sendProblem(res, misframed, headers, false, false, requestId),
          started,
          now(),
          requestId,
        );
      let aborted = false;
      res.onAborted(() => (aborted = true));
      const done = (status: number, body: string): void =>
        observed(route, status, null, 0, body, started, now(), requestId);
      registered
        .then(async (registry) => ({ text: await registry.metrics(), type: registry.contentType }))
        .then(
          ({ text, type }) => aborted || (send(res, 200, type, text, headers), done(200, text)),
          (error: unknown) =>
            aborted ||
            done(500, sendProblem(res, internalError(error, '/metrics', requestId), headers, false, false, requestId)),
        );
    });
    app.options('/metrics', preflight(route));
    app.any('/metrics', notAllowed(route, 'GET, OPTIONS'));
  }

  // LIBUS_LISTEN_EXCLUSIVE_PORT (1): otherwise uWS binds with SO_REUSEPORT and a second server shares a taken
  // port silently; serving threads share theirs on purpose (0). The native listen(host, port, options, cb) is not
  // in the package's typings.
  const listen = (host: string, port: number, exclusive: boolean): Promise<us_listen_socket> =>
    new Promise((resolve, reject) => {
      const native = app.listen as unknown as (
        host: string,
        port: number,
        options: number,
        cb: (token: us_listen_socket | false) => void,
      ) => TemplatedApp;
      native.call(app, host, port, exclusive ? 1 : 0, (token: us_listen_socket | false) =>
        token ? resolve(token) : reject(new Error(`cannot listen on ${host}:${port}`)),
      );
    });
  /**
   * A port the other serving threads can join: Linux lets no second SO_REUSEPORT socket onto an
   * ephemeral port bound as port 0, so port 0 becomes a free port found first (tried again if
   * someone takes it in between).
   */
  const listenShared = async (host: string, port: number): Promise<us_listen_socket> => {
    if (port !== 0) return listen(host, port, false);
    for (let attempt = 1; ; attempt++) {
      const probe = await listen(host, 0, true);
      const free = uWS.us_socket_local_port(probe);
      uWS.us_listen_socket_close(probe);
      try {
        return await listen(host, free, false);
      } catch (error) {
        if (attempt === 5) throw error;
      }
    }
  };
  return (async (): Promise<RunningServer> => {
    const token =
      options.sharedPort === true
        ? await listenShared(options.host, options.port)
        : await listen(options.host, options.port, true);
    const forward = options.forwardListen === true ? await listen('127.0.0.1', 0, true) : null;
    return {
      port: uWS.us_socket_local_port(token),
      forwardPort: forward === null ? null : uWS.us_socket_local_port(forward),
      close: () => {
        uWS.us_listen_socket_close(token);
        if (forward !== null) uWS.us_listen_socket_close(forward);
      },
      closeAll: () => (app as unknown as { close(): void }).close(), // in the native app, not in the typings
      idle: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((done) => idleWaiters.push(done))),
      released: (dataset) =>
        holds.has(dataset)
          ? new Promise<void>((done) => releaseWaiters.set(dataset, [...(releaseWaiters.get(dataset) ?? []), done]))
          : Promise.resolve(),
      requests,
    };
  })();
}

/** A quiet spell this long (no API request) after IDLE_COLLECT_REQUESTS answered asks V8 for a collection. */
const IDLE_COLLECT_MS = 2000;
const IDLE_COLLECT_REQUESTS = 1000;

/** The route label of answers no route matched (404s). */
const UNMATCHED = 'unmatched';
/** Paths served without a key, beside the API's routes. */
const SERVICE_PATHS = [
  '/healthz',
  '/readyz',
  '/livez',
  '/version',
  '/metrics',
  '/api/v1/openapi.json',
  '/api/v1/schema.fbs',
] as const;
const LIVE_BODY = JSON.stringify({ status: 'ok' });

/** A body's size in bytes (for the access log only: a string body is measured by encoding it). */
const sizeOf = (body: string | Buffer | BodyPart[] | null): number =>
  body === null
    ? 0
    : typeof body === 'string'
      ? Buffer.byteLength(body)
      : Array.isArray(body)
        ? body.reduce((n, part) => n + sizeOf(part), 0)
        : body.length;
