// The HTTP side of GET /api/v1/stream: the upgrade request, one exchange like any other request's,
// checked as an API request is (draining, key, rate, parameters), a refusal answered as an HTTP
// problem (never by upgrading and closing).

import type { HttpRequest, HttpResponse, us_socket_context_t } from 'uWebSockets.js';
import type { KeyState, Verdict } from '../guard/guard.js';
import { AMBIGUOUS_KEY, readHeaders, unauthorizedDetail } from '../http/incoming.js';
import { requestIdOf } from '../http/request-id.js';
import type { ServerContext } from '../lifecycle/context.js';
import { Exchange } from '../lifecycle/exchange.js';
import { parseParams } from '../params/declare.js';
import { parseQueryString } from '../params/query-string.js';
import { Problem } from '../problem.js';
import { sendProblem } from '../respond.js';
import { newConn } from './connection.js';
import { STREAM_PATH, STREAM_QUERY } from './protocol.js';

/**
 * uWS's upgrade handler: a key in the upgrade (X-API-Key or Bearer) must be good (else 401) and
 * takes a token (else 429, as a request would); without one the socket opens and has 5 s to send
 * `auth` (browsers). `?format=` is json or msgpack (else 400). Draining: 503.
 */
export function upgradeHandler(ctx: ServerContext) {
  const routeIndex = ctx.requests.routeIndex(STREAM_PATH);
  return (res: HttpResponse, req: HttpRequest, context: us_socket_context_t): void =>
    new UpgradeExchange(ctx, routeIndex, context, res, req).enter();
}

/** One upgrade request: what it needs read from `req` at once, then frame → authenticate → admit → upgrade. */
class UpgradeExchange extends Exchange {
  readonly nowMs: number;
  readonly requestId: string;
  key: KeyState | null = null;
  private verdict: Verdict | null = null;
  private readonly presented: string | null;
  private readonly secKey: string;
  private readonly protocol: string;
  private readonly extensions: string;
  private readonly query: string;

  constructor(
    private readonly ctx: ServerContext,
    readonly routeIndex: number,
    private readonly context: us_socket_context_t,
    res: HttpResponse,
    req: HttpRequest,
  ) {
    super(res, req);
    const incoming = readHeaders(req);
    this.nowMs = ctx.now();
    this.requestId = requestIdOf(incoming.requestId);
    this.presented = incoming.key;
    this.secKey = req.getHeader('sec-websocket-key');
    this.protocol = req.getHeader('sec-websocket-protocol');
    this.extensions = req.getHeader('sec-websocket-extensions');
    this.query = req.getQuery() ?? '';
  }

  protected stages(): void {
    const { guard, state } = this.ctx;
    if (state.draining) throw new Problem('shutting_down');
    if (state.dataset === null) throw new Problem('not_ready');
    if (this.presented === null) return this.admitted(null); // `auth` as the socket's first message
    const key = (this.key = guard.authenticate(this.presented === AMBIGUOUS_KEY ? null : this.presented));
    if (key === null) throw new Problem('unauthorized', unauthorizedDetail(this.presented));
    if (!guard.isShared(key)) return this.admitted(guard.admit(key, this.nowMs, false));
    this.after(guard.admitShared(key, this.nowMs, false), (v) => this.admitted(v));
  }

  /** After the key's token: 429 when refused, else the parameters, then the upgrade. */
  private admitted(verdict: Verdict | null): void {
    this.verdict = verdict;
    if (verdict !== null && !verdict.ok)
      throw new Problem('rate_limited', undefined, { retryAfter: verdict.retryAfter });
    const { format } = parseParams(parseQueryString(this.query), STREAM_QUERY);
    const conn = newConn(format);
    conn.key = this.key; // its connection is taken (or refused 4008) as it opens
    conn.presented = this.key === null ? null : this.presented;
    this.corked(() => this.res.upgrade(conn, this.secKey, this.protocol, this.extensions, this.context));
    this.ctx.observed(this, 101, 0, null);
  }

  protected problemOf(error: unknown): Problem {
    return this.ctx.problemOf(error, STREAM_PATH, this.requestId);
  }

  /** The upgrade refused: an HTTP problem answer (with the rate headers of a 429), observed as any answer. */
  protected answerProblem(problem: Problem): void {
    const { ctx } = this;
    const headers = ctx.limitHeaders(ctx.baseHeaders(this.requestId, ctx.state.dataset, null), this.verdict, null);
    const body = sendProblem(this.res, problem, {
      headers,
      close: ctx.state.draining,
      instance: this.requestId,
    });
    ctx.observed(this, problem.status, 0, body);
  }
}
