// What a micro-benchmark case is: named variants computing one answer, the naive baseline among them;
// and the caches the in-process cases share, as one server's are.

import type { Dataset } from '../../engine/dataset/dataset.js';
import { type KlineAsk, klineQuery, type KlineSlice, sliceOf } from '../../engine/queries/klines.js';
import { Caches, type DatasetCaches } from '../../transport/caches/caches.js';
import type { MarketData } from '../../engine/dataset/dataset.js';

/** The caches of the in-process cases: one server's, at the default budgets. */
export const BENCH_CACHES = new Caches();

/** What that server keeps for `dataset`. */
export const keptFor = (dataset: Dataset): DatasetCaches => BENCH_CACHES.of(dataset);

/** Symbol `i`'s one window of `ask`, as columns (the K-line query, then its slice). */
export function windowSlice(m: MarketData, i: number, ask: KlineAsk): KlineSlice {
  const r = klineQuery(m, i, ask);
  return sliceOf(r, r.windows[0]);
}

/** One way of doing a case's work. `run` returns its answer (compared across variants by the tests). */
export interface Variant {
  name: string;
  run: () => unknown;
}

/**
 * A case as data: what one call does, the variants (the path the server takes first) and
 * which of them is the naive baseline every ratio is computed against.
 */
export interface MicroCase {
  group: string;
  name: string;
  /** What one call produces, for the table: "100 rows, 11,912 B". */
  detail: string;
  variants: Variant[];
  /** Name of the baseline variant. */
  baseline: string;
  /** An answer in comparable form (bytes as text, index vectors as arrays); call right after `run`. */
  answer(out: unknown): unknown;
}

/** Text of a body (a Buffer, possibly a view of a reused scratch buffer) or a string. */
export const bodyText = (out: unknown): string => (Buffer.isBuffer(out) ? out.toString('utf8') : String(out));

/** Byte length of a body answer, for the `detail` column. */
export const bodyBytes = (out: unknown): number => (Buffer.isBuffer(out) ? out.length : Buffer.byteLength(String(out)));

export const thousands = (n: number): string => n.toLocaleString('en-US');
