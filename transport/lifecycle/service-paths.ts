// The paths served without a key beside the API (health, version, OpenAPI, schema.fbs, /metrics, /docs),
// every route's preflight and 405, and the catch-all 404: answers that read no Dataset.

import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Registry } from 'prom-client';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { loadReferencePage } from '../docs/reference-page.js';
import { requestFramingProblem } from '../http/framing.js';
import type { MetricsSources } from '../metrics/exposition.js';
import { Problem } from '../problem.js';
import { type HeaderList, JSON_TYPE, send, sendEmpty, sendProblem } from '../respond.js';
import { requestIdOf } from '../http/request-id.js';
import { SCHEMAS } from '../schemas/responses.js';
import { compileJson } from '../serialise/compile-json.js';
import { FLATBUFFERS_SCHEMA_PATH } from '../serialise/flatbuffer-kit.js';
import type { ServerOptions } from '../server.js';
import { buildAsyncApi } from '../stream/asyncapi.js';
import { StreamFigures } from '../stream/figures.js';
import { ASYNCAPI_PATH } from '../stream/protocol.js';
import type { ScreenRunner } from '../stream/screen-runner.js';
import { type ServerContext, type ServicePath, UNMATCHED } from './context.js';
import { Exchange } from './exchange.js';

/** A 200 (or a 204 with its own headers: a preflight) of a path needing no key; a problem is thrown. */
interface Made {
  status?: 200 | 204;
  type: string;
  body: string | Buffer;
  headers?: HeaderList;
}
/** What a path needing no key answers, read from its exchange while the handler runs (or a promise of it: /metrics). */
type Make = (x: ServiceExchange) => Made | Promise<Made>;
type Handler = (res: HttpResponse, req: HttpRequest) => void;

const healthJson = compileJson(SCHEMAS.health);
const LIVE_BODY = JSON.stringify({ status: 'ok' });

/** /metrics refuses what a serving thread could not forward to this one (http/framing.ts), whichever thread it reaches. */
const strictFraming = (ctx: ServerContext, route: number): boolean => ctx.requests.routes[route] === '/metrics';

/** A path needing no key, as registered: its route label, whether its answers carry CORS, and what it answers. */
interface ServicePathSpec {
  routeIndex: number;
  withCors: boolean;
  make: Make;
}

/** A request to a path needing no key: frame → handle (`make`) → send → observe, any throw one problem answer. */
export class ServiceExchange extends Exchange {
  readonly nowMs: number;
  readonly requestId: string;
  readonly routeIndex: number;
  readonly key = null;
  /** The Origin when the answer carries CORS, else null. */
  readonly origin: string | null;
  private readonly misframed: Problem | null;
  private readonly headOnly: boolean;

  constructor(
    private readonly ctx: ServerContext,
    private readonly path: ServicePathSpec,
    res: HttpResponse,
    req: HttpRequest,
  ) {
    super(res, req);
    this.nowMs = ctx.now();
    this.routeIndex = path.routeIndex;
    this.requestId = requestIdOf(req.getHeader('x-request-id'));
    this.origin = path.withCors ? req.getHeader('origin') : null;
    this.misframed = requestFramingProblem(req, strictFraming(ctx, path.routeIndex));
    this.headOnly = req.getMethod() === 'head';
  }

  protected stages(): void {
    if (this.misframed !== null) throw this.misframed;
    const made = this.path.make(this);
    if (made instanceof Promise) this.after(made, (m) => this.send(m));
    else this.send(made);
  }

  private headers(): HeaderList {
    return this.ctx.baseHeaders(this.requestId, this.ctx.state.dataset, this.origin);
  }

  private send(made: Made): void {
    const { ctx } = this;
    const headers = this.headers();
    if (made.headers !== undefined) for (const part of made.headers) headers.push(part);
    if (made.status === 204) sendEmpty(this.res, 204, headers);
    else
      send(this.res, {
        status: 200,
        contentType: made.type,
        body: made.body,
        headers,
        close: ctx.state.draining,
        headOnly: this.headOnly,
      });
    ctx.observed(this, made.status ?? 200, 0, made.body);
  }

  protected problemOf(error: unknown): Problem {
    return this.ctx.problemOf(error, this.ctx.requests.routes[this.routeIndex], this.requestId);
  }

  protected answerProblem(problem: Problem): void {
    const { ctx } = this;
    const body = sendProblem(this.res, problem, {
      headers: this.headers(),
      close: ctx.state.draining,
      headOnly: this.headOnly,
      instance: this.requestId,
    });
    ctx.observed(this, problem.status, 0, body);
  }
}

/** A handler answering without a key: `make` gives the answer, or throws its problem. */
export function plain(ctx: ServerContext, routeIndex: number, cors: 'cors' | 'no cors', make: Make): Handler {
  const path: ServicePathSpec = { routeIndex, withCors: cors === 'cors', make };
  return (res, req) => new ServiceExchange(ctx, path, res, req).enter();
}

/** Any method but the ones served: 405 with Allow. */
export const notAllowed = (ctx: ServerContext, route: number, allow: string): Handler =>
  plain(ctx, route, 'cors', () => {
    throw new Problem('method_not_allowed', `only ${allow} is served`, { allow });
  });

/** OPTIONS: the CORS preflight (204). */
export const preflight = (ctx: ServerContext, route: number): Handler =>
  plain(ctx, route, 'no cors', (x) => {
    const headers: HeaderList = ['allow', 'GET, OPTIONS'];
    ctx.cors.preflight(x.req!.getHeader('origin'), headers);
    return { status: 204, type: '', body: '', headers };
  });

/** GET (and OPTIONS) of a path needing no key; any other method is a 405. */
function servePlain(
  app: TemplatedApp,
  ctx: ServerContext,
  pattern: ServicePath,
  cors: 'cors' | 'no cors',
  make: Make,
): void {
  const route = ctx.serviceRoute(pattern);
  app.get(pattern, plain(ctx, route, cors, make));
  app.options(pattern, preflight(ctx, route));
  app.any(pattern, notAllowed(ctx, route, 'GET, OPTIONS'));
}

/** Registers health, readiness, liveness, /version, /metrics (when asked), OpenAPI, AsyncAPI, schema.fbs and the reference page (/docs). */
export function mountServicePaths(
  app: TemplatedApp,
  ctx: ServerContext,
  options: ServerOptions,
  stream: { figures: StreamFigures; runner: ScreenRunner },
): void {
  const { state, service } = ctx;
  /** Ready: a snapshot is loaded and the server is not draining (503 otherwise, with Retry-After). */
  const readiness = (): Made => {
    if (state.draining) throw new Problem('shutting_down');
    if (state.dataset === null) throw new Problem('not_ready');
    return {
      type: JSON_TYPE,
      body: healthJson({
        status: 'ok',
        data_version: state.dataset.version,
        usage_durable: state.usageDurable !== false,
      }),
    };
  };
  servePlain(app, ctx, '/healthz', 'cors', readiness);
  servePlain(app, ctx, '/readyz', 'cors', readiness);
  servePlain(app, ctx, '/livez', 'cors', () => ({ type: JSON_TYPE, body: LIVE_BODY }));
  servePlain(app, ctx, '/version', 'cors', () => ({
    type: JSON_TYPE,
    body: JSON.stringify({
      version: service.version,
      commit: service.commit,
      node: process.version,
      data_version: state.dataset?.version ?? null,
    }),
  }));
  if (options.metrics != null) mountMetrics(app, ctx, metricsSources(ctx, options, stream));
  const openapi = options.openapi;
  if (openapi !== undefined) {
    let document: string | null = typeof openapi === 'string' ? openapi : null;
    servePlain(app, ctx, '/api/v1/openapi.json', 'cors', () => ({
      type: JSON_TYPE,
      body: (document ??= (openapi as () => string)()),
    }));
  }
  let asyncapi: string | null = null; // made at its first request, from the plans in force
  servePlain(app, ctx, ASYNCAPI_PATH, 'cors', () => ({
    type: JSON_TYPE,
    body: (asyncapi ??= JSON.stringify(buildAsyncApi(ctx.guard.plans, ctx.service.version))),
  }));
  const fbs = readFileSync(FLATBUFFERS_SCHEMA_PATH, 'utf8');
  servePlain(app, ctx, '/api/v1/schema.fbs', 'cors', () => ({ type: 'text/plain; charset=utf-8', body: fbs }));
  for (const [path, file] of loadReferencePage()) servePlain(app, ctx, path, 'no cors', () => file);
}

/** What /metrics reads: the options' sources, this thread's figures (or every serving thread's), the answer cache, the streams. */
function metricsSources(
  ctx: ServerContext,
  options: ServerOptions,
  stream: { figures: StreamFigures; runner: ScreenRunner },
): MetricsSources {
  const { requests } = ctx;
  const peers = options.peerRequests ?? null;
  const figures =
    peers === null
      ? requests
      : { cells: () => requests.combined(peers()).cells(), latencies: () => requests.combined(peers()).latencies() };
  return {
    ...options.metrics!,
    requests: figures,
    service: ctx.service,
    dataVersion: () => ctx.state.dataset?.version ?? null,
    usageDurable: () => ctx.state.usageDurable !== false,
    answerCache: () => ctx.caches.answerFigures(ctx.state.dataset),
    stream: () => StreamFigures.totals([stream.figures.storage, ...(options.peerStreams?.() ?? [])]),
    screenRuns: () => stream.runner.kept ?? 0,
    eventLoopDelay: monitorEventLoopDelay({ resolution: 10 }),
  };
}

/** GET /metrics: the exposition is written asynchronously (prom-client), so it answers when that is ready. */
function mountMetrics(app: TemplatedApp, ctx: ServerContext, sources: MetricsSources): void {
  // prom-client (50 ms of imports on the one thread that would answer /readyz) is loaded at the first scrape, not
  // at start; the event-loop delay is watched from here all the same.
  sources.eventLoopDelay.enable();
  let registered: Promise<Registry> | null = null;
  servePlain(app, ctx, '/metrics', 'no cors', () =>
    (registered ??= import('../metrics/exposition.js').then((m) => m.metricsRegistry(sources))).then(
      async (registry) => ({ type: registry.contentType, body: await registry.metrics() }),
    ),
  );
}

/** The catch-all 404 (registered last): a problem naming the method and path. */
export function mountNotFound(app: TemplatedApp, ctx: ServerContext): void {
  const unmatched = ctx.requests.routeIndex(UNMATCHED);
  const notFound = (x: ServiceExchange): Made => {
    throw new Problem('not_found', `no route for ${x.req!.getMethod().toUpperCase()} ${x.req!.getUrl()}`);
  };
  const api: ServicePathSpec = { routeIndex: unmatched, withCors: true, make: notFound };
  const other: ServicePathSpec = { routeIndex: unmatched, withCors: false, make: notFound };
  app.any('/*', (res, req) =>
    new ServiceExchange(ctx, req.getUrl().startsWith('/api/') ? api : other, res, req).enter(),
  );
}
