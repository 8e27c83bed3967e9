// Mounts the operator dashboard on the server's uWS app: /dashboard pages and assets, /admin/api JSON.

import type { TemplatedApp } from 'uWebSockets.js';
import type { ProblemOf } from '../lifecycle/exchange.js';
import { Problem } from '../problem.js';
import { type HeaderList, JSON_TYPE } from '../respond.js';
import type { AdminAnswer, AdminRoute } from './admin-route.js';
import { CSP, loadAssets } from './assets.js';
import { checkOrigin, checkToken } from './csrf.js';
import { AdminExchange, type AdminHost, parseJsonBody } from './exchange.js';
import type { AdminDeps } from './ports.js';
import { readRoutes } from './routes-read.js';
import { sessionRoutes } from './routes-session.js';
import { writeRoutes } from './routes-write.js';
import { adminRuntime, type AdminRuntime } from './runtime.js';

export interface Admin {
  /** Registers the dashboard's routes on `app` (before the server's catch-all); their errors answer through `problemOf`. */
  mount(app: TemplatedApp, problemOf: ProblemOf): void;
  readonly runtime: AdminRuntime;
}

/** The dashboard over `deps`; its files are read now, so a missing one fails the start. */
export function createAdmin(deps: AdminDeps): Admin {
  const rt = adminRuntime(deps);
  const assets = loadAssets();
  const routes = [...sessionRoutes(rt), ...readRoutes(rt), ...writeRoutes(rt)];
  const versionHeaders = (): HeaderList =>
    deps.state.dataset === null ? [] : ['x-data-version', deps.state.dataset.version];

  /** One API request: the checks in order, the body (a write's), then the handler. */
  function serve(route: AdminRoute, x: AdminExchange): void {
    const r = x.request;
    const body = route.method === 'post' ? x.body() : null; // read from now, whatever the checks say
    if (deps.state.draining) throw new Problem('shutting_down');
    const nowMs = rt.now();
    // Order (after framing and Host, checked by the exchange): Origin (403) → session (401) → CSRF token (403) → body (400) → the action.
    if (route.guard !== 'none') checkOrigin(r, rt.origin, rt.tls);
    const session = route.session ? rt.sessions.touch(r.cookie, nowMs, deps.operator.passwordStamp()) : null;
    if (route.session && session === null)
      throw new Problem('unauthorized', 'sign in to the dashboard first (an API key does not open it)');
    if (route.guard === 'csrf') checkToken(r, session!);
    const sendAnswer = (answer: AdminAnswer): void =>
      x.send(200, JSON_TYPE, JSON.stringify(answer.value), answer.headers);
    const act = (parsed: Record<string, unknown>): void => {
      const answer = route.handle({ req: r, session, body: parsed, nowMs });
      if (answer instanceof Promise) x.after(answer, sendAnswer);
      else sendAnswer(answer);
    };
    if (body === null) act({});
    else x.after(body, (b) => act(parseJsonBody(b, r.contentType)));
  }

  const pageHeaders: HeaderList = ['content-security-policy', CSP];

  /** /dashboard: the app to a live operator session, the sign-in form to anyone else (an API key included). */
  function page(x: AdminExchange): void {
    const session = rt.sessions.touch(x.request.cookie, rt.now(), deps.operator.passwordStamp());
    const asset = session === null ? assets.signIn : assets.dashboard;
    x.send(200, asset.type, asset.body, pageHeaders);
  }

  /** /dashboard/<name>: a Map lookup of the raw name; anything not listed (`..`, `%2e`, nested paths) is 404. */
  function file(x: AdminExchange): void {
    const asset = assets.files.get(x.request.url.slice('/dashboard/'.length));
    if (asset === undefined) throw new Problem('not_found', 'no such dashboard file');
    x.send(200, asset.type, asset.body, pageHeaders);
  }

  const notAllowed =
    (allow: string) =>
    (_x: AdminExchange): void => {
      throw new Problem('method_not_allowed', `only ${allow} is served here`, { allow });
    };
  const notFound = (x: AdminExchange): void => {
    throw new Problem('not_found', `no route for ${x.request.method.toUpperCase()} ${x.request.url}`);
  };

  return {
    runtime: rt,
    mount(app, problemOf) {
      const host: AdminHost = { checkHost: rt.checkHost, versionHeaders, problemOf };
      // The only registrations of the dashboard: each one exchange.
      const on = (method: 'get' | 'post' | 'any', pattern: string, run: (x: AdminExchange) => void, params = 0): void =>
        void app[method](pattern, (res, req) => new AdminExchange(host, pattern, run, params, res, req).enter());
      const allowed = new Map<string, string[]>();
      for (const route of routes) {
        on(route.method, route.pattern, (x) => serve(route, x), route.params);
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
