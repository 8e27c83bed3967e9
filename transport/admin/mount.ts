// Mounts the operator dashboard on the server's uWS app: /dashboard pages and assets, /admin/api JSON.

import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { requestFramingProblem } from '../http/framing.js';
import { requestIdOf } from '../http/request-id.js';
import { Problem } from '../problem.js';
import { type HeaderList, JSON_TYPE, sendProblem } from '../respond.js';
import type { AdminRoute } from './admin-route.js';
import { type Asset, CSP, loadAssets } from './assets.js';
import { checkOrigin, checkToken } from './csrf.js';
import { parseJsonBody, readBody, readRequest, Reply, SECURITY_HEADERS } from './exchange.js';
import type { AdminDeps } from './ports.js';
import { readRoutes } from './routes-read.js';
import { sessionRoutes } from './routes-session.js';
import { writeRoutes } from './routes-write.js';
import { adminRuntime, type AdminRuntime } from './runtime.js';

export interface Admin {
  /** Registers the dashboard's routes on `app` (before the server's catch-all). */
  mount(app: TemplatedApp): void;
  readonly runtime: AdminRuntime;
}

/** The dashboard over `deps`; its files are read now, so a missing one fails the start. */
export function createAdmin(deps: AdminDeps): Admin {
  const rt = adminRuntime(deps);
  const assets = loadAssets();
  const routes = [...sessionRoutes(rt), ...readRoutes(rt), ...writeRoutes(rt)];
  const versionHeaders = (): HeaderList =>
    deps.state.dataset === null ? [] : ['x-data-version', deps.state.dataset.version];

  /** One API request: copy it, onAborted, start reading the body, then the checks in order, then the handler. */
  function serve(route: AdminRoute, res: HttpResponse, req: HttpRequest): void {
    const r = readRequest(res, req, route.params);
    const reply = new Reply(res, versionHeaders, r.requestId); // registers onAborted before anything awaits
    const body = route.method === 'post' ? readBody(res) : Promise.resolve(Buffer.alloc(0));
    body.catch(() => {}); // a refused request may never look at its body
    void (async () => {
      try {
        if (deps.state.draining) throw new Problem('shutting_down');
        const nowMs = rt.now();
        // Order (after framing and Host, checked by `checked`): Origin (403) → session (401) → CSRF token (403) → body (400) → the action.
        if (route.guard !== 'none') checkOrigin(r, rt.origin, rt.tls);
        const session = route.session ? rt.sessions.touch(r.cookie, nowMs, deps.operator.passwordStamp()) : null;
        if (route.session && session === null)
          throw new Problem('unauthorized', 'sign in to the dashboard first (an API key does not open it)');
        if (route.guard === 'csrf') checkToken(r, session!);
        const parsed = parseJsonBody(await body, r.contentType);
        const answer = await route.handle({ req: r, session, body: parsed, nowMs });
        reply.send(200, JSON_TYPE, JSON.stringify(answer.value), answer.headers);
      } catch (error) {
        if (error instanceof Problem) {
          reply.problem(error, [], error.param === 'body'); // an oversized body: close rather than read the rest
          return;
        }
        rt.log(
          `dashboard: internal error on ${route.pattern}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        reply.problem(new Problem('internal_error'));
      }
    })();
  }

  const pageHeaders: HeaderList = ['content-security-policy', CSP];

  function sendAsset(res: HttpResponse, asset: Asset, requestId: string): void {
    new Reply(res, versionHeaders, requestId).send(200, asset.type, asset.body, pageHeaders);
  }

  /** A dashboard problem answered at once: the security headers, the request id (also the body's `instance`), the data version. */
  function refuse(res: HttpResponse, req: HttpRequest, problem: Problem): void {
    const requestId = requestIdOf(req.getHeader('x-request-id'));
    sendProblem(
      res,
      problem,
      [...SECURITY_HEADERS, 'x-request-id', requestId, ...versionHeaders()],
      false,
      req.getMethod() === 'head',
      requestId,
    );
  }

  /** /dashboard: the app to a live operator session, the sign-in form to anyone else (an API key included). */
  function page(res: HttpResponse, req: HttpRequest): void {
    const r = readRequest(res, req, 0);
    const session = rt.sessions.touch(r.cookie, rt.now(), deps.operator.passwordStamp());
    sendAsset(res, session === null ? assets.signIn : assets.dashboard, r.requestId);
  }

  /** /dashboard/<name>: a Map lookup of the raw name; anything not listed (`..`, `%2e`, nested paths) is 404. */
  function file(res: HttpResponse, req: HttpRequest): void {
    const name = req.getUrl().slice('/dashboard/'.length);
    const asset = assets.files.get(name);
    if (asset === undefined) return refuse(res, req, new Problem('not_found', 'no such dashboard file'));
    sendAsset(res, asset, requestIdOf(req.getHeader('x-request-id')));
  }

  const notAllowed = (allow: string) => (res: HttpResponse, req: HttpRequest) =>
    refuse(res, req, new Problem('method_not_allowed', `only ${allow} is served here`, { allow }));
  const notFound = (res: HttpResponse, req: HttpRequest): void =>
    refuse(res, req, new Problem('not_found', `no route for ${req.getMethod().toUpperCase()} ${req.getUrl()}`));

  type Handler = (res: HttpResponse, req: HttpRequest) => void;

  /**
   * Every dashboard handler, wrapped: before anything else, a request with two Host or
   * Content-Length fields is refused (http/framing.ts; a body's length must be unambiguous),
   * then the Host check (host-check.ts).
   */
  const checked =
    (handler: Handler): Handler =>
    (res, req) => {
      const misframed = requestFramingProblem(req, true); // strict: as a serving thread refuses what it cannot forward here
      const refused = misframed ?? rt.checkHost(req.getHeader('host'));
      if (refused === null) handler(res, req);
      else refuse(res, req, refused); // a misframed request's problem closes the connection (problem.ts)
    };

  return {
    runtime: rt,
    mount(app) {
      // The only registrations of the dashboard: each through checked.
      const on = (method: 'get' | 'post' | 'any', pattern: string, handler: Handler): void =>
        void app[method](pattern, checked(handler));
      const allowed = new Map<string, string[]>();
      for (const route of routes) {
        on(route.method, route.pattern, (res, req) => serve(route, res, req));
        allowed.set(route.pattern, [...(allowed.get(route.pattern) ?? []), route.method.toUpperCase()]);
      }
      for (const [pattern, methods] of allowed) on('any', pattern, notAllowed(methods.join(', ')));
      on('any', '/admin/api/*', notFound);
      on('get', '/dashboard', page);
      on('get', '/dashboard/', page);
      on('get', '/dashboard/*', file);
      on('any', '/dashboard', notAllowed('GET'));
      on('any', '/dashboard/*', notAllowed('GET'));
    },
  };
}
