// The paths served without a key beside the API (health, version, OpenAPI, schema.fbs, /metrics, /docs),
// every route's preflight and 405, and the catch-all 404: answers that read no Dataset.

import { readFileSync } from 'node:fs';
import type { Registry } from 'prom-client';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { loadReferencePage } from '../docs/reference-page.js';
import { requestFramingProblem } from '../http/framing.js';
import type { MetricsSources } from '../metrics/exposition.js';
import { Problem } from '../problem.js';
import { JSON_TYPE, send, sendEmpty, sendProblem } from '../respond.js';
import { SCHEMAS } from '../schemas/responses.js';
import { compileJson } from '../serialise/compile-json.js';
import { FLATBUFFERS_SCHEMA_PATH } from '../serialise/to-flatbuffers.js';
import type { ServerOptions } from '../server.js';
import { type ServerContext, type ServicePath, UNMATCHED } from './context.js';

/** What a path needing no key answers: the 200 body, or a problem. */
type Make = (req: HttpRequest) => Problem | { type: string; body: string };
type Handler = (res: HttpResponse, req: HttpRequest) => void;

const healthJson = compileJson(SCHEMAS.health);
const LIVE_BODY = JSON.stringify({ status: 'ok' });

/** /metrics refuses what a serving thread could not forward to this one (http/framing.ts), whichever thread it reaches. */
const strictFraming = (ctx: ServerContext, route: number): boolean => ctx.requests.routes[route] === '/metrics';

/** A handler answering without a key: `make` gives the 200 body or a problem. */
export const plain =
  (ctx: ServerContext, route: number, withCors: boolean, make: Make): Handler =>
  (res, req) => {
    const started = performance.now();
    const nowMs = ctx.now();
    const { headers, requestId } = ctx.plainHeaders(req, withCors);
    const misframed = requestFramingProblem(req, strictFraming(ctx, route));
    const made = misframed ?? make(req);
    const headOnly = req.getMethod() === 'head';
    if (made instanceof Problem) {
      const body = sendProblem(res, made, headers, ctx.state.draining, headOnly, requestId);
      return ctx.observed(route, made.status, null, 0, body, started, nowMs, requestId);
    }
    send(res, 200, made.type, made.body, headers, ctx.state.draining, headOnly);
    ctx.observed(route, 200, null, 0, made.body, started, nowMs, requestId);
  };

/** Any method but the ones served: 405 with Allow. */
export const notAllowed = (ctx: ServerContext, route: number, allow: string): Handler =>
  plain(ctx, route, true, () => new Problem('method_not_allowed', `only ${allow} is served`, { allow }));

/** OPTIONS: the CORS preflight (204). */
export const preflight =
  (ctx: ServerContext, route: number): Handler =>
  (res, req) => {
    const started = performance.now();
    const { headers, requestId } = ctx.plainHeaders(req, false);
    const misframed = requestFramingProblem(req, strictFraming(ctx, route));
    if (misframed !== null) {
      const body = sendProblem(res, misframed, headers, false, false, requestId);
      return ctx.observed(route, misframed.status, null, 0, body, started, ctx.now(), requestId);
    }
    headers.push('allow', 'GET, OPTIONS');
    ctx.cors.preflight(req.getHeader('origin'), headers);
    sendEmpty(res, 204, headers);
    ctx.observed(route, 204, null, 0, null, started, ctx.now(), requestId);
  };

/** GET (and OPTIONS) of a path needing no key; any other method is a 405. */
function servePlain(app: TemplatedApp, ctx: ServerContext, pattern: ServicePath, withCors: boolean, make: Make): void {
  const route = ctx.serviceRoute(pattern);
  app.get(pattern, plain(ctx, route, withCors, make));
  app.options(pattern, preflight(ctx, route));
  app.any(pattern, notAllowed(ctx, route, 'GET, OPTIONS'));
}

/** Registers health, readiness, liveness, /version, /metrics (when asked), OpenAPI, schema.fbs and the reference page (/docs). */
export function mountServicePaths(app: TemplatedApp, ctx: ServerContext, options: ServerOptions): void {
  const { state, service } = ctx;
  /** Ready: a snapshot is loaded and the server is not draining (503 otherwise, with Retry-After). */
  const readiness = (): Problem | { type: string; body: string } => {
    if (state.draining) return new Problem('shutting_down');
    if (state.dataset === null) return new Problem('not_ready');
    return { type: JSON_TYPE, body: healthJson({ status: 'ok', data_version: state.dataset.version }) };
  };
  servePlain(app, ctx, '/healthz', true, readiness);
  servePlain(app, ctx, '/readyz', true, readiness);
  servePlain(app, ctx, '/livez', true, () => ({ type: JSON_TYPE, body: LIVE_BODY }));
  servePlain(app, ctx, '/version', true, () => ({
    type: JSON_TYPE,
    body: JSON.stringify({
      version: service.version,
      commit: service.commit,
      node: process.version,
      data_version: state.dataset?.version ?? null,
    }),
  }));
  if (options.metrics != null) mountMetrics(app, ctx, metricsSources(ctx, options));
  const openapi = options.openapi;
  if (openapi !== undefined) {
    let document: string | null = typeof openapi === 'string' ? openapi : null;
    servePlain(app, ctx, '/api/v1/openapi.json', true, () => ({
      type: JSON_TYPE,
      body: (document ??= (openapi as () => string)()),
    }));
  }
  const fbs = readFileSync(FLATBUFFERS_SCHEMA_PATH, 'utf8');
  servePlain(app, ctx, '/api/v1/schema.fbs', true, () => ({ type: 'text/plain; charset=utf-8', body: fbs }));
  for (const [path, file] of loadReferencePage()) servePlain(app, ctx, path, false, () => file);
}

/** What /metrics reads: the options' sources, this thread's figures (or every serving thread's), the answer cache. */
function metricsSources(ctx: ServerContext, options: ServerOptions): MetricsSources {
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
    answerCache: () => ctx.cacheFigures(),
  };
}

/** GET /metrics: the exposition is written asynchronously (prom-client), so the answer corks once it is ready. */
function mountMetrics(app: TemplatedApp, ctx: ServerContext, sources: MetricsSources): void {
  // prom-client is loaded beside the start (50 ms of imports), not before it: ready by the first scrape.
  const registered: Promise<Registry> = import('../metrics/exposition.js').then((m) => m.metricsRegistry(sources));
  const route = ctx.serviceRoute('/metrics');
  app.get('/metrics', (res, req) => {
    const started = performance.now();
    const { headers, requestId } = ctx.plainHeaders(req, false);
    const misframed = requestFramingProblem(req, true);
    if (misframed !== null) {
      const body = sendProblem(res, misframed, headers, false, false, requestId);
      return ctx.observed(route, misframed.status, null, 0, body, started, ctx.now(), requestId);
    }
    let aborted = false;
    res.onAborted(() => (aborted = true));
    const done = (status: number, body: string): void =>
      ctx.observed(route, status, null, 0, body, started, ctx.now(), requestId);
    registered
      .then(async (registry) => ({ text: await registry.metrics(), type: registry.contentType }))
      .then(
        ({ text, type }) => aborted || (send(res, 200, type, text, headers), done(200, text)),
        (error: unknown) =>
          aborted ||
          done(
            500,
            sendProblem(res, ctx.internalError(error, '/metrics', requestId), headers, false, false, requestId),
          ),
      );
  });
  app.options('/metrics', preflight(ctx, route));
  app.any('/metrics', notAllowed(ctx, route, 'GET, OPTIONS'));
}

/** The catch-all 404 (registered last): a problem naming the method and path. */
export function mountNotFound(app: TemplatedApp, ctx: ServerContext): void {
  const unmatched = ctx.requests.routeIndex(UNMATCHED);
  app.any('/*', (res, req) => {
    const url = req.getUrl();
    plain(
      ctx,
      unmatched,
      url.startsWith('/api/'),
      () => new Problem('not_found', `no route for ${req.getMethod().toUpperCase()} ${url}`),
    )(res, req);
  });
}
