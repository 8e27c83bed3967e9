// The HTTP side of GET /api/v1/stream: the upgrade request checked as any API request is (draining,
// key, rate, parameters), a refusal answered as an HTTP problem (never by upgrading and closing).

import type { HttpRequest, HttpResponse, us_socket_context_t } from 'uWebSockets.js';
import type { KeyState, Verdict } from '../guard/guard.js';
import { AMBIGUOUS_KEY, readHeaders, unauthorizedDetail } from '../http/incoming.js';
import { requestIdOf } from '../http/request-id.js';
import type { ServerContext } from '../lifecycle/context.js';
import { parseParams } from '../params/declare.js';
import { parseQueryString } from '../params/query-string.js';
import { Problem } from '../problem.js';
import { sendProblem } from '../respond.js';
import { newConn } from './connection.js';
import { STREAM_PATH, STREAM_QUERY, type StreamFormat } from './protocol.js';

/** What the handler copied out of the request before anything could make it invalid. */
interface Upgrading {
  started: number;
  nowMs: number;
  requestId: string;
  presented: string | null;
  secKey: string;
  protocol: string;
  extensions: string;
  query: string;
}

/**
 * uWS's upgrade handler: a key in the upgrade (X-API-Key or Bearer) must be good (else 401) and
 * takes a token (else 429, as a request would); without one the socket opens and has 5 s to send
 * `auth` (browsers). `?format=` is json or msgpack (else 400). Draining: 503.
 */
export function upgradeHandler(ctx: ServerContext) {
  const route = ctx.requests.routeIndex(STREAM_PATH);
  return (res: HttpResponse, req: HttpRequest, context: us_socket_context_t): void => {
    const incoming = readHeaders(req);
    const u: Upgrading = {
      started: performance.now(),
      nowMs: ctx.now(),
      requestId: requestIdOf(incoming.requestId),
      presented: incoming.key,
      secKey: req.getHeader('sec-websocket-key'),
      protocol: req.getHeader('sec-websocket-protocol'),
      extensions: req.getHeader('sec-websocket-extensions'),
      query: req.getQuery() ?? '',
    };
    const { guard, state } = ctx;
    let key: KeyState | null = null;
    try {
      if (state.draining) throw new Problem('shutting_down');
      if (state.dataset === null) throw new Problem('not_ready');
      if (u.presented !== null) {
        key = guard.authenticate(u.presented === AMBIGUOUS_KEY ? null : u.presented);
        if (key === null) throw new Problem('unauthorized', unauthorizedDetail(u.presented));
        if (guard.isShared(key)) {
          // The shared bucket answers later: the request is gone by then, the response kept.
          let aborted = false;
          res.onAborted(() => void (aborted = true));
          const k = key;
          guard.admitShared(key, u.nowMs, false).then(
            (v) => aborted || res.cork(() => admitted(ctx, route, res, context, u, k, v)),
            (error: unknown) =>
              aborted ||
              res.cork(() => refuse(ctx, route, res, u, k, ctx.problemOf(error, STREAM_PATH, u.requestId), null)),
          );
          return;
        }
      }
      admitted(ctx, route, res, context, u, key, key === null ? null : guard.admit(key, u.nowMs, false));
    } catch (error) {
      refuse(ctx, route, res, u, key, ctx.problemOf(error, STREAM_PATH, u.requestId), null);
    }
  };
}

/** After the key's token: 429 when refused, else the parameters, then the upgrade. */
function admitted(
  ctx: ServerContext,
  route: number,
  res: HttpResponse,
  context: us_socket_context_t,
  u: Upgrading,
  key: KeyState | null,
  verdict: Verdict | null,
): void {
  let format: StreamFormat;
  try {
    if (verdict !== null && !verdict.ok)
      throw new Problem('rate_limited', undefined, { retryAfter: verdict.retryAfter });
    format = parseParams(parseQueryString(u.query), STREAM_QUERY).format;
  } catch (error) {
    return refuse(ctx, route, res, u, key, ctx.problemOf(error, STREAM_PATH, u.requestId), verdict);
  }
  const conn = newConn(format);
  conn.key = key; // its connection is taken (or refused 4008) as it opens
  conn.presented = key === null ? null : u.presented;
  res.upgrade(conn, u.secKey, u.protocol, u.extensions, context);
  ctx.observed(route, 101, key, 0, null, u.started, u.nowMs, u.requestId);
}

/** The upgrade refused: an HTTP problem answer (with the rate headers of a 429), observed as any answer. */
function refuse(
  ctx: ServerContext,
  route: number,
  res: HttpResponse,
  u: Upgrading,
  key: KeyState | null,
  problem: Problem,
  verdict: Verdict | null,
): void {
  const headers = ctx.limitHeaders(ctx.baseHeaders(u.requestId, ctx.state.dataset, null), verdict, null);
  const body = sendProblem(res, problem, headers, ctx.state.draining, false, u.requestId);
  ctx.observed(route, problem.status, key, 0, body, u.started, u.nowMs, u.requestId);
}
