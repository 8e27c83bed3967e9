// The HTTP server on uWebSockets.js: its options, and `startServer`, which wires the pieces of
// lifecycle/ together (the server's context, the data routes' exchange, the service paths, listening).

import { createRequire } from 'node:module';
import uWS, { type TemplatedApp } from 'uWebSockets.js';
import type { Dataset } from '../engine/dataset/dataset.js';
import type { Guard } from './guard/guard.js';
import { guardHandlers } from './http/guarded-app.js';
import type { AccessLog } from './log.js';
import { ServerContext } from './lifecycle/context.js';
import { serve } from './lifecycle/data-exchange.js';
import { listenServer } from './lifecycle/listen.js';
import { mountNotFound, mountServicePaths, notAllowed, preflight } from './lifecycle/service-paths.js';
import type { MetricsSources } from './metrics/exposition.js';
import type { RequestMetrics, RequestStorage } from './metrics/request-metrics.js';
import type { PoolUse } from './route.js';
import type { ProblemOf } from './lifecycle/exchange.js';
import type { CacheBudgets, Caches } from './caches/caches.js';
import { StreamHub } from './stream/hub.js';
import { INLINE_SCREENS, PooledScreens, type ScreenRunner } from './stream/screen-runner.js';

/** What the server serves from; main.ts owns it and swaps `dataset` on reload. */
export interface ServerState {
  dataset: Dataset | null;
  draining: boolean;
  /**
   * False while the usage counts are held in memory because the state folder refuses their write
   * (a full disk): /readyz says so (`usage_durable`). Absent: durable (a server without a state store).
   */
  usageDurable?: boolean;
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
  metrics?: Omit<
    MetricsSources,
    'requests' | 'answerCache' | 'dataVersion' | 'usageDurable' | 'service' | 'stream' | 'screenRuns' | 'eventLoopDelay'
  > | null;
  /** What /version and the build_info metric tell. */
  service?: { version: string; commit: string };
  /** Longest an asynchronous (pool) request may take before a 503 answers it (default 5000 ms). */
  deadlineMs?: number;
  /** Worker pool for screens and as-of tables of large enough markets. */
  pool?: PoolUse | null;
  /** Told of every API answer (time, latency in ms, status): typed-array counters, no allocation. */
  meter?: { record(nowMs: number, ms: number, status: number): void } | null;
  /** What the server's caches may hold (default DEFAULT_CACHE_BUDGETS): whole answers, rendered rows, as-of tables. */
  caches?: CacheBudgets;
  /** CORS_ORIGINS: `*` (default) or a comma list of origins allowed to call the API from a browser. */
  corsOrigins?: string;
  /**
   * Busy polling: for this long after an API request the event loop does not sleep (an
   * immediate re-queues itself, so libuv polls without waiting). Requests arriving within
   * the window then skip the wake-up of an idle core, which on a virtual machine reaches
   * milliseconds at p99; the price is a busy core while requests keep coming. 0: off.
   */
  busyPollMs?: number;
  /** An export whose reader takes nothing for this long is cut (its unsent rows given back); default STALL_LIMIT_MS (10 min). */
  exportStallMs?: number;
  /** Exports one key may have under way at once (EXPORTS_PER_KEY; internal keys are not limited); default 4. */
  exportsPerKey?: number;
  /** Registers more routes (the dashboard's /dashboard and /admin/api) before the catch-all 404; their exchanges map thrown values to problems with `problemOf`. */
  mount?: ((app: TemplatedApp, problemOf: ProblemOf) => void) | null;
  /**
   * One of several serving threads on this port (THREADS): listens with SO_REUSEPORT, so the
   * kernel spreads connections over the threads. Off: the port is this server's alone.
   */
  sharedPort?: boolean;
  /** Also listen on a free loopback port (`forwardPort`), where the other serving threads forward the dashboard and /metrics. */
  forwardListen?: boolean;
  /** The other serving threads' figures (their shared counters), summed into /metrics. */
  peerRequests?: (() => RequestStorage[]) | null;
  /** The other serving threads' stream figures (shared memory), summed into /metrics. */
  peerStreams?: (() => Float64Array[]) | null;
  /** Where the stream's standing screens run (default: on `pool` when given, each distinct screen once per edition; else inline). */
  streamScreens?: ScreenRunner | null;
  /** Seconds of silence before a WebSocket is closed as dead (default 60; uWS pings live ones before then). */
  streamIdleSeconds?: number;
}

/** The part of a pino logger the server writes to: JSON fields, then the message. */
export interface ServerLog {
  info(fields: object, msg: string): void;
  error(fields: object, msg: string): void;
}

export interface RunningServer {
  port: number;
  /** Stops listening and cuts the exports in progress; other open connections stay until they close or the process exits. */
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
  /** What the server keeps (answers, rendered rows, as-of tables) and the collections it asks V8 for. */
  readonly caches: Caches;
  /** The loopback port of `forwardListen`, else null. */
  readonly forwardPort: number | null;
  /**
   * The WebSockets of /api/v1/stream: tell it each new Dataset as it is swapped in (`published`),
   * close every socket 1001 when draining (`goingAway`); its figures are what /metrics sums.
   */
  readonly stream: StreamHub;
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
  const ctx = new ServerContext(options);
  // Every handler registered below (the dashboard's and the forwarded paths' too) throws into one guard: a logged 500.
  const app: TemplatedApp = guardHandlers(uWS.App(), ctx.onThrow);
  for (const route of ctx.routes) {
    const index = ctx.requests.routeIndex(route.pattern);
    app.get(route.pattern, (res, req) => serve(ctx, route, index, res, req));
    app.options(route.pattern, preflight(ctx, index));
    app.any(route.pattern, notAllowed(ctx, index, 'GET, OPTIONS'));
  }
  const runner = options.streamScreens ?? (options.pool ? new PooledScreens(options.pool.kernels) : INLINE_SCREENS);
  const stream = new StreamHub(ctx, { runner, idleSeconds: options.streamIdleSeconds });
  stream.mount(app);
  mountServicePaths(app, ctx, options, stream);
  options.mount?.(app, ctx.problemOf); // more routes (the dashboard's) before the catch-all 404
  mountNotFound(app, ctx);
  return listenServer(app, ctx, options, stream);
}
