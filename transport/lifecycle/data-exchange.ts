// One data request's way through the server, as named stages in order: frame → route →
// authenticate → admit → cache → parse → handle → render → charge → send → observe. A
// `DataExchange` holds what the request read once and what each stage found.

import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { Dataset } from '../../engine/dataset/dataset.js';
import type { Plan } from '../../engine/plans.js';
import { FORMAT_OF, type Format } from '../answers/formats/index.js';
import type { ExportCharge, KeyState, Verdict } from '../guard/guard.js';
import { contentEtag, etagOf, noneMatch } from '../http/conditional.js';
import { framingProblem } from '../http/framing.js';
import { readHeaders, unauthorizedDetail } from '../http/incoming.js';
import { type Encoding, negotiateEncoding, negotiateFormat, NO_FORMAT } from '../http/negotiate.js';
import { requestIdOf } from '../http/request-id.js';
import { decode } from '../params/query-string.js';
import { Problem } from '../problem.js';
import { headerBlock, sendEmpty, sendProblem, sendWhole, startStream } from '../respond.js';
import { type ParsedRequest, parseRequest, type Reply, type Route } from '../route.js';
import { assemble, type BodyPart } from '../serialise/assemble.js';
import { compress, MIN_COMPRESSED_BYTES } from '../serialise/encode.js';
import { render as renderFormat } from '../serialise/render.js';
import { type Answer, CachedAnswer, encodingSlot, encodingOf, type ResponseCache } from '../caches/response-cache.js';
import type { DatasetCaches } from '../caches/caches.js';
import { NO_CACHE, type ServerContext } from './context.js';
import { Exchange } from './exchange.js';
import { StreamedBody } from './streamed-body.js';

/**
 * GET of a data route (uWS matched it: the route stage): the request read once, then the stages
 * in order. The local path runs to its answer before this returns; the shared limits store and
 * the pool continue it later (`after`). Any throw is one problem answer (`fail`).
 */
export function serve(ctx: ServerContext, route: Route, routeIndex: number, res: HttpResponse, req: HttpRequest): void {
  new DataExchange(ctx, route, routeIndex, res, req).enter();
}

/**
 * One data request: one object, its stages prototype methods, so a request makes no closure of its
 * own except on its asynchronous paths (the shared limits store, the pool).
 */
export class DataExchange extends Exchange {
  readonly nowMs: number;
  private readonly rawQuery: string;
  /** Read when first needed (`params`): a kept answer never needs them. */
  private rawParams: string[] | null = null;
  /** The path as sent (uWS's one flat string: the cache key's start, and a fresh page's Link). */
  private readonly path: string;
  private readonly misframed: Problem | null;
  private readonly presented: string | null;
  private readonly ifNoneMatch: string;
  private readonly origin: string;
  readonly requestId: string;
  private readonly acceptFormat: Format | null;
  /** Accept as sent, kept only for a streaming route (an export), which negotiates among its own formats. */
  private readonly accept: string;
  private readonly encoding: Encoding;
  /** This request's Dataset to the end, whatever a reload swaps in. */
  private readonly dataset: Dataset | null;
  /** The authenticated key (null until authenticated, and for a route without one). */
  key: KeyState | null = null;
  /** The admission's verdict (a copy of it once the request waits on the pool: the local one is reused). */
  private figures: Verdict | null = null;
  private format: Format | null = null;
  /** What the server keeps for this request's Dataset (looked up on first use). */
  private kept_: DatasetCaches | null = null;
  private cache: ResponseCache | null = null;
  private cacheKey = '';
  /** The answer's encoding and ETag, and whether If-None-Match names it (a 304): set once its body is known (`tag`). */
  private used: Encoding = 'identity';
  private etag = '';
  private unchanged = false;

  constructor(
    private readonly ctx: ServerContext,
    private readonly route: Route,
    readonly routeIndex: number,
    res: HttpResponse,
    req: HttpRequest,
  ) {
    super(res, req); // what every request needs is read from `req` now: it is gone once the handler returns
    this.nowMs = ctx.now();
    ctx.arrived(this.started);
    this.path = req.getUrl();
    this.rawQuery = req.getQuery() ?? '';
    const h = readHeaders(req);
    this.misframed = framingProblem(h);
    this.presented = route.auth ? h.key : null;
    this.ifNoneMatch = h.ifNoneMatch;
    this.origin = h.origin;
    this.requestId = requestIdOf(h.requestId);
    this.acceptFormat = negotiateFormat(h.accept);
    this.accept = route.stream === undefined ? '' : h.accept;
    this.encoding = negotiateEncoding(h.acceptEncoding);
    this.dataset = ctx.state.dataset;
  }

  protected stages(): void {
    this.frame();
    if (this.route.auth) this.admit(this.authenticate());
    else this.proceed();
  }

  /** Frame: a request two parsers could read differently, no data yet, or draining. */
  frame(): void {
    if (this.misframed !== null) throw this.misframed;
    if (this.dataset === null) throw new Problem('not_ready');
    if (this.ctx.state.draining) throw new Problem('shutting_down');
  }

  /** Authenticate: the presented key, or a 401. */
  authenticate(): KeyState {
    const key = (this.key = this.ctx.guard.authenticate(this.presented));
    if (key === null) throw new Problem('unauthorized', unauthorizedDetail(this.presented));
    return key;
  }

  /**
   * Admit: the token bucket and the quota, from the local store (a verdict now) or the shared one
   * (a promise; `req` is gone when it answers, so the parameters are read first). A kept answer is
   * looked up first: its rows are known, so they are charged with the admit, in one step.
   */
  admit(key: KeyState): void {
    const { guard } = this.ctx;
    const hit = this.kept(key.plan);
    if (hit !== undefined) return this.admitKept(key, hit);
    // The local verdict is a reused object: read before any other admit.
    if (!guard.isShared(key)) return this.admitted(guard.admit(key, this.nowMs, this.route.charges));
    this.params();
    this.admitted(guard.admitShared(key, this.nowMs, this.route.charges));
  }

  /** The path parameters as sent, read from `req` on first use: in the handler, or before a step that leaves it. */
  private params(): string[] {
    if (this.rawParams !== null) return this.rawParams;
    const req = this.req!;
    const params: string[] = new Array(this.route.pathNames.length); // a loop, not map(): no closure per request
    for (let i = 0; i < params.length; i++) params[i] = req.getParameter(i) ?? '';
    return (this.rawParams = params);
  }

  /** Admission's one continuation, whichever store gave the verdict: a verdict now goes on at once (no microtask). */
  private admitted(verdict: Verdict | Promise<Verdict>): void {
    if (!(verdict instanceof Promise)) {
      this.figures = verdict;
      return this.proceed();
    }
    this.after(verdict, (v) => {
      this.figures = v;
      this.proceed();
    });
  }

  /** Everything after admission: refusal, then cache → parse → handle. */
  proceed(): void {
    refuseIf(this.figures);
    const plan = this.key?.plan ?? this.ctx.keylessPlan;
    const hit = this.kept(plan);
    if (hit !== undefined) return this.answerKept(hit);
    this.handle(this.parse(), plan);
  }

  /** Cache: the kept answer of this request, if any (sets the cache keys a fresh answer is offered under). */
  private kept(plan: Plan): CachedAnswer | undefined {
    if (!this.route.cacheable || this.cacheKey !== '') return undefined;
    // One short string, hashed once: the request's key (`requestKey`: the path and query as sent, and
    // the plan, by name and the figures that shape answers: it clamps limits and bounds batches),
    // then the format Accept asks for.
    this.cacheKey = `${this.path}?${this.rawQuery} ${plan.answerKey} ${this.acceptFormat}`;
    // Reading a character makes V8 flatten the joined pieces once, here: the Map then hashes and
    // compares one flat string, where a string of pieces took its slow paths (~0.25 µs a request).
    this.cacheKey.charCodeAt(0);
    if ((this.cache = this.caches.answers) === null) return undefined;
    return this.cache.get(this.cacheKey);
  }

  /** What the server keeps for this request's Dataset. */
  private get caches(): DatasetCaches {
    return (this.kept_ ??= this.ctx.caches.of(this.dataset!));
  }

  /** The request's key (path and query as sent, plan) without the format Accept asks for: what a fresh answer's ETag derives from. */
  private get requestKey(): string {
    return this.cacheKey.slice(0, this.cacheKey.lastIndexOf(' '));
  }

  /** Parse: path and query parameters (400s), then the format they and Accept ask for (406s). */
  private parse(): ParsedRequest {
    const parsed = parseRequest(this.route, this.dataset!, this.params(), this.rawQuery);
    const { stream } = this.route;
    if (stream !== undefined) {
      // An export: its own formats, by `format=` or else Accept.
      const p = parsed.p as { format: string | null };
      if ((p.format ??= stream.formatOf(this.accept)) === null)
        throw new Problem('not_acceptable', `no export format matches Accept (${stream.types.join(', ')}; or format=)`);
      return parsed;
    }
    const format = (parsed.p.format as Format | null) ?? this.acceptFormat;
    if (format === null) throw new Problem('not_acceptable', NO_FORMAT);
    const refusal = FORMAT_OF[format].refusal(this.route.shape); // e.g. CSV of an answer without rows
    if (refusal !== null) throw new Problem('not_acceptable', refusal);
    this.format = format;
    return parsed;
  }

  /** Handle: the route's work; a reply now is rendered at once, a promised one (the pool) later. */
  private handle({ params, query, p }: ParsedRequest, plan: Plan): void {
    let abort: AbortController | null = null;
    const signal = this.route.mayAnswerLater ? (): AbortSignal => (abort ??= new AbortController()).signal : null;
    const { dataset, key, nowMs } = this;
    const reply = this.route.handle(
      { dataset: dataset!, caches: this.caches, params, query, key, plan, nowMs, signal, pool: this.ctx.pool },
      p as never,
    );
    if (!(reply instanceof Promise)) return this.render(reply);
    if (this.figures !== null) this.figures = { ...this.figures }; // the local verdict is a reused object
    this.after(reply, (r) => this.render(r), {
      deadlineMs: this.ctx.deadlineMs,
      onAbort: () => (abort as AbortController | null)?.abort(),
    });
  }

  /** Render: the reply as bytes in its format, offered to the cache, compressed, tagged. */
  private render(reply: Reply): void {
    if (reply.stream !== undefined) return this.chargeWhole(reply);
    const format = this.format!;
    const rendered = renderFormat(reply, format, this.caches);
    const link = reply.page === undefined ? null : nextLink(this.path, this.rawQuery, reply.page);
    const tag = this.route.cacheable ? `${this.dataset!.version}\n${this.requestKey}\n${format}` : null;
    const fresh: Answer = { rows: reply.rows, type: rendered.type, link, body: rendered.body, format, tag };
    const kept = this.cache === null ? null : this.cache.offer(this.cacheKey, fresh);
    if (kept !== null) return this.answerKept(kept);
    // Bytes are joined here only when they must be read: to compress them, or to tag them by content (/quota).
    const { encoding } = this;
    let body = encoding !== 'identity' || tag === null ? bytesOf(rendered.body) : rendered.body;
    let used: Encoding = 'identity';
    if (encoding !== 'identity' && (body as Buffer).length >= MIN_COMPRESSED_BYTES)
      (body = compress(body as Buffer, encoding)), (used = encoding);
    const etag = tag !== null ? etagOf(tag, used) : contentEtag(body as Buffer, used);
    this.charge(fresh, body, used, etag);
  }

  /** A kept answer in the encoding asked for, with its ETag, on to the charge. */
  private answerKept(kept: CachedAnswer): void {
    const used = encodingOf(kept, this.encoding);
    this.charge(kept, this.cache!.bodyIn(kept, used), used, keptEtag(kept, used));
  }

  /**
   * Charge: 304 when If-None-Match names `etag` (no rows charged), else the answer's rows. The
   * local store charges now; the shared one before the answer leaves, so the key's next request
   * on any instance sees them. The body is copied first: a joined body is a view of the reused
   * assembly buffer, which the next answer overwrites.
   */
  private charge(a: Answer | CachedAnswer, body: Answer['body'], used: Encoding, etag: string): void {
    const rows = this.tag(used, etag) ? 0 : a.rows;
    const { key } = this;
    const { guard } = this.ctx;
    if (key === null || rows <= 0 || !guard.isShared(key))
      return this.send(a, body, key === null ? null : guard.charge(key, rows, this.nowMs));
    const kept = typeof body === 'string' ? body : Buffer.from(bytesOf(body));
    this.after(guard.chargeShared(key, rows, this.nowMs), (remaining) => this.send(a, kept, remaining));
  }

  /**
   * Charge a streamed answer (an export) whole before its first byte, to the key's daily export
   * allowance, not its row quota: only when its rows fit in what is left today (checked and
   * charged in one step, the shared store's in one script), else a 429 naming both counts,
   * nothing sent or charged; then the stream pours, with the row quota's figures as they were.
   */
  private chargeWhole(reply: Reply): void {
    // A turn after the handler: a request pipelined in the same packet makes uWS close the
    // connection before the export begins (uWS #277), and then nothing is charged.
    if (this.synchronous) return this.after(new Promise((r) => setImmediate(r)), () => this.chargeWhole(reply));
    const { key, ctx } = this;
    const { guard } = ctx;
    const rowsLeft = this.figures?.quotaRemaining ?? null;
    if (key === null) return this.pour(reply, null, () => {});
    // One of the key's exports under way (EXPORTS_PER_KEY): given back once, when it ends or is refused.
    if (!guard.openExport(key, ctx.exportsPerKey))
      throw new Problem(
        'too_many_exports',
        `the key has ${ctx.exportsPerKey} exports under way, as many as one key may at once; start this one when one of them ends`,
      );
    let open = true;
    const close = (): void => {
      if (open) (open = false), guard.closeExport(key);
    };
    const poured = (c: ExportCharge): void => {
      if (!c.fits) {
        close();
        throw new Problem(
          'export_quota_exhausted',
          `the export holds ${reply.rows} rows and the key has ${c.remaining} export rows left today (${key.plan.exportRows} a day); narrow it (symbols, start, end, period) or wait for the reset`,
          { retryAfter: c.retryAfter },
        );
      }
      this.pour(reply, rowsLeft, close);
    };
    if (!guard.isShared(key)) return poured(guard.chargeExport(key, reply.rows, this.nowMs));
    const day = key.dayLabel;
    const charging = guard.chargeExportShared(key, reply.rows, this.nowMs);
    this.after(charging, poured);
    // The client gone during the round trip: the export never began, its rows go back; Redis down: nothing began.
    charging.then((c) => {
      if (!this.gone) return;
      close();
      if (c.fits) guard.refundExport(key, reply.rows, day, ctx.now());
    }, close);
  }

  /**
   * Pour a streamed answer: the headers now, then its chunks in the thread's turns
   * (`StreamedBody`): one chunk held at a time, every other request of the thread answered
   * between turns, the connection's next request read once the body is out. It ends when the
   * source does, when the client leaves, or when the server cuts it (draining, a reader that took
   * nothing for STALL_LIMIT_MS, or making a chunk throws: logged); a cut gives back the rows
   * not sent (the client sees an incomplete transfer).
   */
  private pour(reply: Reply, remaining: number | null, ended: () => void): void {
    const { ctx, res, dataset, key } = this;
    const { type, filename, source } = reply.stream!;
    const headers = ctx.limitHeaders(
      ctx.baseHeaders(this.requestId, dataset, this.origin, false),
      this.figures,
      remaining,
    );
    headers.push(
      'content-type',
      type,
      'content-disposition',
      `attachment; filename="${filename}"`,
      'cache-control',
      'no-store',
    );
    // Its format follows Accept; with a CORS_ORIGINS list the allow-origin header depends on Origin.
    headers.push('vary', ctx.cors.varyFormat);
    ctx.hold(dataset);
    const chargedDay = key?.dayLabel ?? '';
    const body = new StreamedBody(res, source, ctx.turns, (end) => {
      ended();
      ctx.settled(dataset);
      let rows = reply.rows;
      if (end.kind === 'cut') {
        if (end.reason === 'failed') ctx.internalError(end.error, this.route.pattern, this.requestId);
        const unsent = reply.rows - end.rowsSent;
        if (key !== null && unsent > 0) ctx.guard.refundExport(key, unsent, chargedDay, ctx.now());
        rows = end.rowsSent;
        ctx.logger?.info(
          {
            request_id: this.requestId,
            route: this.route.pattern,
            reason: end.reason,
            rows_sent: end.rowsSent,
            rows_given_back: unsent,
          },
          'streamed answer cut; the rows not sent were given back',
        );
      }
      ctx.observed(this, 200, rows, null);
    });
    this.watch(() => body.abandoned()); // the client left: nothing more is made or written
    startStream(res, { headers, body, inHandler: this.synchronous });
  }

  /**
   * A kept answer: its rows are known, so the admit charges them in the same step (the local
   * store's one lock, or the shared store's one round trip, after which the answer leaves).
   */
  private admitKept(key: KeyState, hit: CachedAnswer): void {
    const used = encodingOf(hit, this.encoding);
    const rows = this.tag(used, keptEtag(hit, used)) ? 0 : hit.rows;
    const { guard } = this.ctx;
    if (!guard.isShared(key)) return this.keptAdmitted(guard.admit(key, this.nowMs, this.route.charges, rows), hit);
    this.after(guard.admitShared(key, this.nowMs, this.route.charges, rows), (v) => this.keptAdmitted(v, hit));
  }

  /** A kept answer's admission, whichever store gave it: refused, or sent with what is left after its rows. */
  private keptAdmitted(v: Verdict, hit: CachedAnswer): void {
    this.figures = v;
    refuseIf(v); // before the body: a refused request compresses nothing
    const rows = this.unchanged ? 0 : hit.rows;
    const remaining = v.quotaRemaining === null ? null : Math.max(0, v.quotaRemaining - rows);
    this.send(hit, this.cache!.bodyIn(hit, this.used), remaining);
  }

  /** The answer's encoding and ETag, and whether If-None-Match names that ETag (a 304, no rows charged); returns the last. */
  private tag(used: Encoding, etag: string): boolean {
    this.used = used;
    this.etag = etag;
    return (this.unchanged = this.ifNoneMatch !== '' && noneMatch(this.ifNoneMatch, etag));
  }

  /** Send: 200 with the body (a kept answer keeps its header block per encoding) or 304 (`unchanged`); then observe. */
  private send(a: Answer | CachedAnswer, body: Answer['body'], remaining: number | null): void {
    const { ctx, dataset, used, etag } = this;
    if (!this.unchanged) {
      // A kept answer keeps its block per encoding, as bytes of its own counted by its cache.
      const slot = encodingSlot(used);
      const head =
        a instanceof CachedAnswer
          ? (a.heads[slot] ?? this.cache!.keepHead(a, slot, ctx.answerHead(a, dataset!.version, etag, used)))
          : ctx.answerHead(a, dataset!.version, etag, used);
      const rest = headerBlock(
        ctx.limitHeaders(ctx.baseHeaders(this.requestId, null, this.origin, false), this.figures, remaining),
      );
      sendWhole(this.res, { status: 200, head, rest, body, close: ctx.state.draining, inHandler: this.synchronous });
      return ctx.observed(this, 200, a.rows, body);
    }
    const headers = ctx.limitHeaders(
      ctx.baseHeaders(this.requestId, null, this.origin, false),
      this.figures,
      remaining,
    );
    headers.push('x-data-version', dataset!.version, 'etag', etag, 'cache-control', NO_CACHE, 'vary', ctx.vary);
    if (a.link !== null) headers.push('link', a.link);
    sendEmpty(this.res, 304, headers, ctx.state.draining);
    ctx.observed(this, 304, 0, null);
  }

  protected problemOf(error: unknown): Problem {
    return this.ctx.problemOf(error, this.route.pattern, this.requestId);
  }

  /** A problem's answer: a zero charge gives the quota headers; observed like any answer. */
  protected answerProblem(problem: Problem): void {
    const { ctx, key } = this;
    const remaining = key === null ? null : ctx.guard.charge(key, 0, this.nowMs);
    // Connection: close while draining, and after a problem whose code always closes (a misframed request).
    const body = sendProblem(this.res, problem, {
      headers: ctx.limitHeaders(ctx.baseHeaders(this.requestId, this.dataset, this.origin), this.figures, remaining),
      close: ctx.state.draining,
      instance: this.requestId,
    });
    ctx.observed(this, problem.status, 0, body);
  }

  /** A step waiting on the shared limits store holds this request's Dataset until it settles. */
  protected override hold(): void {
    this.ctx.hold(this.dataset);
  }
  protected override settle(): void {
    this.ctx.settled(this.dataset);
  }
}

/** A kept answer's ETag in the encoding it goes out in: made on the first such answer, kept with it. */
const keptEtag = (kept: CachedAnswer, used: Encoding): string =>
  (kept.etags[encodingSlot(used)] ??= etagOf(kept.tag!, used));

/** A 429 when the verdict refuses. */
function refuseIf(v: Verdict | null): void {
  if (v !== null && !v.ok) throw new Problem(v.code!, undefined, { retryAfter: v.retryAfter });
}

/** A body as one run of bytes (a view of the reused assembly buffer for pieces: valid until the next assembly). */
const bytesOf = (body: string | Buffer | BodyPart[]): Buffer =>
  typeof body === 'string' ? Buffer.from(body) : Array.isArray(body) ? assemble(body) : body;

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
