// What a route is: one declaration of its pattern, parameters, response shape, problems and handler.
// The query parser, the OpenAPI document and the docs are all read from it.

import type { Dataset } from '../engine/dataset/dataset.js';
import type { KernelPool } from '../engine/pool/pool.js';
import type { Plan } from '../engine/plans.js';
import type { DatasetCaches } from './caches/caches.js';
import type { KeyState } from './guard/guard.js';
import { type Params, type Parsed, parseParams, type PatternParam } from './params/declare.js';
import { parseQueryString } from './params/query-string.js';
import { badParam } from './problem.js';
import { marketOf } from './routes/lookup.js';
import { FORMAT_PARAM } from './http/negotiate.js';
import type { ProblemCode } from './problem.js';
import type { Shape } from './shapes/shape.js';

/** The kernel pool and when a route sends work to it: screens of markets with at least `minScreenRows` symbols, as-of tables of at least `minAsOfSymbols`. */
export interface PoolUse {
  kernels: KernelPool;
  minScreenRows: number;
  minAsOfSymbols: number;
}

/** Everything a handler may read; copied out of the uWS request before anything else runs. */
export interface RequestContext {
  /** The Dataset this request runs on from start to end, even if a reload swaps in another. */
  dataset: Dataset;
  /** What the server keeps for that Dataset (period bars, days' rows, as-of views, …). */
  caches: DatasetCaches;
  /** Path parameters in pattern order, percent-decoded. */
  params: string[];
  /** The parsed query string (declared parameters are also handed over parsed). */
  query: ReadonlyMap<string, string>;
  /** The authenticated key and its plan (routes that need no key get null). */
  key: KeyState | null;
  plan: Plan;
  nowMs: number;
  /**
   * A signal aborted when the client goes away or the deadline passes, made on first call
   * (only routes that may answer later get one; an inline answer never pays for it).
   */
  signal: (() => AbortSignal) | null;
  /** Where large kernels run, and from what size; null: everything inline. */
  pool: PoolUse | null;
}

/** Where a streamed answer's bytes come from, a chunk at a time. */
export interface ChunkSource {
  /** The next chunk (valid until the next call: it may be a view of a reused buffer), or null at the end. */
  next(): Buffer | null;
  /** Rows in the chunks given so far. */
  readonly rowsGiven: number;
}

/** A successful answer: engine results for the shape's renderers, and the rows it charges. */
// biome-ignore lint/suspicious/noExplicitAny: the default result of a reply whose route is not known here
export interface Reply<R = any> {
  shape: Shape<R>;
  result: R;
  rows: number;
  /** Where a paged answer's page sits (for `Link: rel="next"` while rows remain). */
  page?: { offset: number; count: number; total: number };
  /** A streamed answer (an export): its type, its attachment's name, and where its chunks come from. `rows` counts it whole. */
  stream?: { type: string; filename: string; source: ChunkSource };
}

export interface RouteSpec<P extends Params> {
  /** uWS pattern under the server root, e.g. `/api/v1/:market/klines/:symbol`. */
  pattern: string;
  operationId: string;
  summary: string;
  description: string;
  /** The OpenAPI tag that groups it. */
  tag: string;
  /** Further OpenAPI tags it is listed under (the batch K-lines, which also answer the cross-section, under Bulk data). */
  moreTags?: string[];
  /** Declared query parameters (`format` is added to every route). */
  query: P;
  /** A family of parameters named by a pattern (the screen's bounds), parsed by the handler. */
  patternQuery?: PatternParam;
  // biome-ignore lint/suspicious/noExplicitAny: a reply holds any route's shape; the route's own type checks it
  shape: Shape<any>;
  /** Shapes the route answers besides `shape`, as its parameters choose (the cross-section of batch K-lines), each with an example. */
  // biome-ignore lint/suspicious/noExplicitAny: as `shape`
  otherShapes?: { shape: Shape<any>; example: unknown }[];
  /** A JSON answer of this route as the OpenAPI document shows it (tests hold it to the shape's schema). */
  example: unknown;
  /** Problem codes this route answers beyond the ones every route shares. */
  problems: ProblemCode[];
  auth: boolean;
  /** False for /quota and /macro/indicators: they charge no rows and are served even with no rows left. */
  charges: boolean;
  /**
   * True when the answer is a pure function of the Dataset, the plan and the request's raw
   * path and query (every route but /quota): it may then be served from the answer cache.
   */
  cacheable: boolean;
  /** True when `handle` may return a Promise (pool work): only then is an abort signal made. */
  mayAnswerLater?: boolean;
  /**
   * A route whose replies stream (an export): it names its own formats (its own `format`, which
   * wins), these content types, and the format `Accept` chooses when `format` is absent (null:
   * none acceptable, a 406).
   */
  stream?: { types: readonly string[]; formatOf(accept: string): string | null };
  /** True when replies say where their page sits (`Reply.page`): the answer then links the next page. */
  paged?: boolean;
  /** Synchronous for the common path; a Promise only for work sent to the pool. */
  handle(ctx: RequestContext, p: Parsed<P & { format: typeof FORMAT_PARAM }>): Reply | Promise<Reply>;
}

/** A declared route, as the server and the OpenAPI builder read it. */
export interface Route extends RouteSpec<Params> {
  /** Names of the pattern's path parameters, in order. */
  pathNames: string[];
  /** Its list parameters (`symbols`, `fields`): repeated, they join as one comma list. */
  listNames: ReadonlySet<string>;
}

/** Declares a route: adds the `format` parameter and derives the path parameter names. */
export function route<P extends Params>(spec: RouteSpec<P>): Route {
  const pathNames = [...spec.pattern.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);
  // A streaming route declares its own `format` (its formats are not the registry's).
  const format = spec.stream !== undefined && 'format' in spec.query ? spec.query.format : FORMAT_PARAM;
  const listNames = new Set(Object.keys(spec.query).filter((name) => spec.query[name].list === true));
  return { ...(spec as unknown as RouteSpec<Params>), query: { ...spec.query, format }, pathNames, listNames };
}

/** A request's path and query as `route` reads them. */
export interface ParsedRequest {
  /** Path parameters in pattern order, percent-decoded. */
  params: string[];
  query: ReadonlyMap<string, string>;
  /** The declared parameters, parsed. */
  p: Parsed<Params>;
}

/**
 * Parses a request for `route` in the API's check order (route, method, key, rate, quota,
 * then parameters before existence): path parameters (a market that is not one of the six
 * is 400 unknown_market before any query problem), then the query (a list parameter may
 * repeat), then every declared parameter (an undeclared one is a 400 naming it).
 */
export function parseRequest(route: Route, dataset: Dataset, rawParams: string[], rawQuery: string): ParsedRequest {
  const params = rawParams.map((text, i) => {
    if (text.indexOf('%') < 0) return text;
    try {
      return decodeURIComponent(text);
    } catch {
      throw badParam(route.pathNames[i], 'malformed percent-encoding');
    }
  });
  if (route.pathNames[0] === 'market') marketOf(dataset, params[0]);
  const query = parseQueryString(rawQuery, route.listNames);
  return { params, query, p: parseParams(query, route.query, route.patternQuery ?? null) };
}
