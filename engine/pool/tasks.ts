// What crosses the thread boundary: parameters in, positions out. Column data never does: it
// is shared memory, whose handles a worker keeps per version (screens) or gets with the task
// (derivations, which fill shared rows in place).

import type { SnapshotRows, SnapshotTable } from '../kernels/derive-snapshot.js';
import type { FundamentalColumns, KlineColumns } from '../dataset/kline-columns.js';
import type { Dataset } from '../dataset/dataset.js';
import type { Market } from '../markets.js';

/** What a worker keeps of a Dataset for screens: each market's own snapshot table. */
export type AttachedMarkets = Partial<Record<Market, SnapshotTable>>;

/**
 * A Dataset the worker opens itself (its columns are views of a memory map, which cannot be
 * posted without a copy): the origin's key and reference (`Dataset.origin`), and the keys of
 * every Dataset still served, so the worker lets go of the others before it runs the task.
 */
export interface TaskSource {
  key: string;
  ref: unknown;
  live: string[];
}

/** What the module named by the pool's `sourceModule` exports, in the worker. */
export interface SourceOpener {
  datasetOf(source: TaskSource): Dataset;
}

/** Filter, sort and page the market's own snapshot table. */
export interface ScreenTask {
  kind: 'screen';
  /** The Dataset instance the task reads (pool.ts instanceKey). */
  version: string;
  market: Market;
  /** A Dataset the worker opens itself; without it, tables are attached: */
  source?: TaskSource;
  /** Sent only when the worker said it does not hold `version` yet. */
  attach?: AttachedMarkets;
  bounds: [column: string, min: number, max: number][];
  sort: string;
  descending: boolean;
  offset: number;
  limit: number;
}

/**
 * Fill rows [from, to) of a table as of `asOf`; row r is market symbol symbols[r]. The columns
 * come from `source` (a Dataset the worker opens itself), or with the task as shared memory
 * (the handles of one market's columns cost less to send than a round trip asking whether the
 * worker holds them); `out` is shared memory.
 */
export interface DeriveTask {
  kind: 'derive';
  market: Market;
  source?: TaskSource;
  klines?: KlineColumns;
  fundamentals?: FundamentalColumns;
  asOf: number;
  symbols: Int32Array;
  from: number;
  to: number;
  out: SnapshotRows;
}

/** Many screens of one Dataset the worker opens itself (`source`), run one after another: one round trip for the lot. */
export interface ScreensTask {
  kind: 'screens';
  source: TaskSource;
  screens: Omit<ScreenTask, 'kind' | 'version' | 'source' | 'attach'>[];
}

export type PoolTask = ScreenTask | ScreensTask | DeriveTask;

export type NotAttached = { attached: false };
export type ScreenTaskResult = NotAttached | { attached: true; total: number; rows: number[] };
/** A derivation answers nothing: its rows are in `out`. */
export type DeriveTaskResult = null;
/** Each screen's total and page, in the order asked. */
export type ScreensTaskResult = { total: number; rows: number[] }[];
export type PoolTaskResult = ScreenTaskResult | ScreensTaskResult | DeriveTaskResult;
