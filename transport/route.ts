// What a route is: a uWS pattern, whether it needs a key and charges rows, and its handler.

import type { Dataset } from '../engine/dataset/dataset.js';
import type { KernelPool } from '../engine/pool/pool.js';
import type { KeyState } from './guard/guard.js';
import type { Plan } from '../engine/plans.js';
import type { ShapeName } from './schemas/responses.js';
import type { BodyPart } from './serialise/assemble.js';

/** Everything a handler may read; copied out of the uWS request before anything else runs. */
export interface RequestContext {
  /** The Dataset this request runs on from start to end, even if a reload swaps in another. */
  dataset: Dataset;
  /** Path parameters in pattern order, percent-decoded. */
  params: string[];
  /** The parsed query string. */
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
  pool: { kernels: KernelPool; minScreenRows: number } | null;
}

/**
 * A successful answer of a schema'd shape and the rows it charges: either a value the
 * shape's compiled serialiser writes, or the body already rendered (hot paths that keep
 * rendered row text; tests hold such bodies to the same schema).
 */
export type Reply = { shape: ShapeName; rows: number } & ({ value: unknown; body?: undefined } | { body: BodyPart[]; value?: undefined });

export interface Route {
  /** uWS pattern under the server root, e.g. `/api/v1/:market/klines/:symbol`. */
  pattern: string;
  /** Names of the pattern's parameters, for 400 problems on bad percent-encoding. */
  paramNames: string[];
  auth: boolean;
  /** False only for /quota: it charges no rows and is served even with no rows left. */
  charges: boolean;
  /**
   * True when the answer is a pure function of the Dataset, the plan and the request's raw
   * path and query (every route but /quota): its body may then be served from the
   * Dataset's response cache.
   */
  cacheable: boolean;
  /** True when `handle` may return a Promise (pool work): only then is an abort signal made. */
  mayAnswerLater?: boolean;
  /** Synchronous for the common path; a Promise only for work sent to the pool. */
  handle(ctx: RequestContext): Reply | Promise<Reply>;
}
