// The HTTP server on uWebSockets.js: routes, key check, limits, parameters, serialisation.

import { createRequire } from 'node:module';
import uWS, { type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';
import type { Dataset } from '../engine/dataset/dataset.js';
import type { KernelPool } from '../engine/pool/pool.js';
import type { Guard, KeyState, Verdict } from './guard/guard.js';
import { PLANS } from '../engine/plans.js';
import { parseQueryString } from './params/query-string.js';
import { badParam, Problem } from './problem.js';
import { type HeaderList, JSON_TYPE, send, sendProblem } from './respond.js';
import type { Reply, Route } from './route.js';
import { routesFor } from './routes/index.js';
import { serialisers } from './serialise/compile.js';
import { DEFAULT_RESPONSE_CACHE, type ResponseCache, type ResponseCacheOptions, responseCacheOf } from './serialise/response-cache.js';

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
  /** The OpenAPI document's JSON text, served at /api/v1/openapi.json without a key. */
  openapi?: string;
  now?: () => number;
  log?: (line: string) => void;
  /** Longest an asynchronous (pool) request may take before a 503 answers it (default 5000 ms). */
  deadlineMs?: number;
  /** Worker pool for screens over markets of at least `minScreenRows` symbols. */
  pool?: { kernels: KernelPool; minScreenRows: number } | null;
  /** Told of every API answer (time, latency in ms, status): typed-array counters, no allocation. */
  meter?: { record(nowMs: number, ms: number, status: number): void } | null;
  /** Whole-answer cache per Dataset (default DEFAULT_RESPONSE_CACHE); null: none. */
  responseCache?: ResponseCacheOptions | null;
  /**
   * Busy polling: for this long after an API request the event loop does not sleep (an
   * immediate re-queues itself, so libuv polls without waiting). Requests arriving within
   * the window then skip the wake-up of an idle core, which on a virtual machine reaches
   * milliseconds at p99; the price is a busy core while requests keep coming. 0: off.
   */
  busyPollMs?: number;
  /** Registers more routes (the dashboard's /dashboard and /admin/api) before the catch-all 404. */
  mount?: ((app: TemplatedApp) => void) | null;
}

export interface RunningServer {
  port: number;
  /** Stops listening; open connections stay until they close or the process exits. */
  close(): void;
  /** Resolves once no asynchronous request is in flight (at once if none is). */
  idle(): Promise<void>;
}

/** uWS quietly falls back to a slow pure-JS server when its binary does not load: refuse that. */
export function assertNativeUws(): void {
  const require = createRequire(import.meta.url);
  require('uWebSockets.js');
  if (!Object.keys(require.cache).some((path) => /[\\/]binaries[\\/]uws_[^\\/]+\.node$/.test(path))) {
    throw new Error('uWebSockets.js did not load its native binary (it fell back to its JavaScript implementation); refusing to start');
  }
}

/** Stands for two different X-API-Key headers: no key at all (uWS's getHeader sees only the first). */
const AMBIGUOUS_KEY = '\u0000ambiguous';

function presentedKey(req: HttpRequest): string | null {
  let key: string | null = null;
  req.forEach((name, value) => {
    if (name !== 'x-api-key') return;
    key = key !== null && key !== value ? AMBIGUOUS_KEY : value;
  });
  return key;
}

function unauthorizedDetail(presented: string | null): string {
  if (presented === null || presented === '') return 'X-API-Key is missing';
  return presented === AMBIGUOUS_KEY ? 'X-API-Key is given twice with different values' : 'X-API-Key is invalid or disabled';
}

function decodeParams(raw: string[], names: string[]): string[] {
  return raw.map((text, i) => {
    if (text.indexOf('%') < 0) return text;
    try {
      return decodeURIComponent(text);
    } catch {
      throw badParam(names[i], 'malformed percent-encoding');
    }
  });
}

export function startServer(options: ServerOptions): Promise<RunningServer> {
  assertNativeUws();
  const { guard, state } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.error(line));
  const app: TemplatedApp = uWS.App();
  const meter = options.meter ?? null;

  /** The data version header of the Dataset a response came from. */
  const versionHeaders = (dataset: Dataset | null): HeaderList => (dataset === null ? [] : ['x-data-version', dataset.version]);
  /** Headers of answers that read no Dataset (404, 405, health): the one served now. */
  const baseHeaders = (): HeaderList => versionHeaders(state.dataset);

  /** Rate and quota headers of an authenticated response (none for internal keys). */
  function limitHeaders(headers: HeaderList, v: Verdict | null, quotaRemaining: number | null): HeaderList {
    if (v === null) return headers;
    if (v.rateLimit !== null) headers.push('x-ratelimit-limit', String(v.rateLimit), 'x-ratelimit-remaining', String(v.rateRemaining));
    if (v.quotaLimit !== null) headers.push('x-quota-limit', String(v.quotaLimit), 'x-quota-remaining', String(quotaRemaining ?? v.quotaRemaining));
    return headers;
  }

  const cacheOptions = options.responseCache === undefined ? DEFAULT_RESPONSE_CACHE : options.responseCache;
  /** A WeakMap lookup, not a remembered reference: an old Dataset must stay collectable after a reload. */
  const cacheOf = (dataset: Dataset): ResponseCache | null => (cacheOptions === null ? null : responseCacheOf(dataset, cacheOptions));

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

  let inFlight = 0;
  let idleWaiters: (() => void)[] = [];
  const deadlineMs = options.deadlineMs ?? 5000;

  function serve(route: Route, res: HttpResponse, req: HttpRequest): void {
    if (busyPollMs > 0) keepAwake();
    // Everything is read from `req` now: it is gone once this function returns.
    const nowMs = now();
    const started = meter === null ? 0 : performance.now();
    const rawQuery = req.getQuery() ?? '';
    const rawParams = route.paramNames.map((_, i) => req.getParameter(i));
    const presented = route.auth ? presentedKey(req) : null;
    const dataset = state.dataset; // this request's Dataset to the end, whatever a reload swaps in
    let key: KeyState | null = null;
    let verdict: Verdict | null = null;
    let cache: ResponseCache | null = null;
    let cacheKey = '';
    const fail = (error: unknown, figures: Verdict | null): void => {
      const problem = error instanceof Problem ? error : internalError(error, route, log);
      const remaining = key === null ? null : guard.charge(key, 0, nowMs);
      if (meter !== null) meter.record(nowMs, performance.now() - started, problem.status);
      sendProblem(res, problem, limitHeaders(versionHeaders(dataset), figures, remaining), state.draining); // draining: Connection: close
    };
    const finish = (reply: Reply, figures: Verdict | null): void => {
      let body = reply.body ?? serialisers[reply.shape](reply.value);
      if (cache !== null) body = cache.offer(cacheKey, reply, body)?.body ?? body;
      const remaining = key === null ? null : guard.charge(key, reply.rows, nowMs);
      if (meter !== null) meter.record(nowMs, performance.now() - started, 200);
      send(res, 200, JSON_TYPE, body, limitHeaders(versionHeaders(dataset), figures, remaining), state.draining);
    };
    try {
      if (dataset === null) throw new Problem('not_ready', 'no snapshot is loaded yet').withHeader('retry-after', '1');
      if (state.draining) throw new Problem('shutting_down', 'the server is shutting down').withHeader('retry-after', '1');
      if (route.auth) {
        key = guard.authenticate(presented);
        if (key === null) throw new Problem('unauthorized', unauthorizedDetail(presented));
        verdict = guard.admit(key, nowMs, route.charges); // a reused object: read before any other admit
        if (!verdict.ok) throw new Problem(verdict.code!, verdict.code === 'rate_limited' ? 'request rate above the plan' : 'no rows left today').withHeader('retry-after', String(verdict.retryAfter));
      }
      const plan = key?.plan ?? PLANS.internal;
      if (route.cacheable && (cache = cacheOf(dataset)) !== null) {
        // The plan is in the key: it clamps limits and bounds batches.
        cacheKey = `${route.pattern} ${plan.name} ${rawParams.join('/')}?${rawQuery}`;
        const hit = cache.get(cacheKey);
        if (hit !== undefined) {
          cache = null; // nothing to offer back
          finish(hit, verdict);
          return;
        }
      }
      let abort: AbortController | null = null;
      const signal = route.mayAnswerLater ? (): AbortSignal => (abort ??= new AbortController()).signal : null;
      const reply = route.handle({
        dataset,
        params: decodeParams(rawParams, route.paramNames),
        query: parseQueryString(rawQuery),
        key,
        plan,
        nowMs,
        signal,
        pool: options.pool ?? null,
      });
      if (!(reply instanceof Promise)) {
        finish(reply, verdict);
        return;
      }
      answerLater(reply, verdict === null ? null : { ...verdict }, () => (abort as AbortController | null)?.abort());
    } catch (error) {
      fail(error, verdict);
    }

    /** The async path (pool work): abort handler first, a deadline, then cork → send once. */
    function answerLater(pending: Promise<Reply>, figures: Verdict | null, abort: () => void): void {
      let answered = false;
      inFlight++;
      res.onAborted(() => {
        answered = true; // the client left: never touch `res` again
        abort();
      });
      const timer = setTimeout(() => {
        if (answered) return;
        answered = true;
        abort();
        fail(new Problem('deadline_exceeded', `the request took longer than ${deadlineMs} ms`).withHeader('retry-after', '1'), figures);
      }, deadlineMs);
      pending
        .then(
          (reply) => {
            if (answered) return;
            answered = true;
            try {
              finish(reply, figures);
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
          if (--inFlight > 0) return;
          const waiters = idleWaiters;
          idleWaiters = [];
          for (const done of waiters) done();
        });
    }
  }

  const notAllowed = (res: HttpResponse, req: HttpRequest): void => {
    const problem = new Problem('method_not_allowed', 'only GET is served').withHeader('allow', 'GET');
    sendProblem(res, problem, baseHeaders(), false, req.getMethod() === 'head');
  };
  for (const route of routesFor(guard)) {
    app.get(route.pattern, (res, req) => serve(route, res, req));
    app.any(route.pattern, notAllowed);
  }
  app.any('/healthz', notAllowed);
  app.get('/healthz', (res) => {
    if (state.dataset === null || state.draining) {
      const problem = state.draining ? new Problem('shutting_down', 'the server is draining') : new Problem('not_ready', 'no snapshot is loaded yet');
      sendProblem(res, problem.withHeader('retry-after', '1'), baseHeaders(), state.draining);
      return;
    }
    send(res, 200, JSON_TYPE, serialisers.health({ status: 'ok', data_version: state.dataset.version }), baseHeaders());
  });
  const openapi = options.openapi;
  if (openapi !== undefined) {
    app.get('/api/v1/openapi.json', (res) => send(res, 200, JSON_TYPE, openapi, baseHeaders()));
    app.any('/api/v1/openapi.json', notAllowed);
  }
  options.mount?.(app); // more routes (the dashboard's) before the catch-all 404
  app.any('/*', (res, req) => {
    const problem = new Problem('not_found', `no route for ${req.getMethod().toUpperCase()} ${req.getUrl()}`);
    sendProblem(res, problem, baseHeaders(), false, req.getMethod() === 'head');
  });

  return new Promise((resolve, reject) => {
    app.listen(options.host, options.port, (token: us_listen_socket | false) => {
      if (!token) {
        reject(new Error(`cannot listen on ${options.host}:${options.port}`));
        return;
      }
      resolve({
        port: uWS.us_socket_local_port(token),
        close: () => uWS.us_listen_socket_close(token),
        idle: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((done) => idleWaiters.push(done))),
      });
    });
  });
}

/** An unexpected exception: logged with its stack, answered as a plain 500 problem. */
function internalError(error: unknown, route: Route, log: (line: string) => void): Problem {
  log(`internal error on ${route.pattern}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return new Problem('internal_error', 'an unexpected error occurred; it has been logged');
}
