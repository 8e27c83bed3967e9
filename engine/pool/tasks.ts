// What crosses the thread boundary: parameters in, positions out. Column data never does: it
// is shared memory, whose handles a worker keeps per version (screens) or gets with the task
// (derivations, which fill shared rows in place).

import type { SnapshotRows, SnapshotTable } from '../kernels/derive-snapshot.js';
import type { FundamentalColumns, KlineColumns } from '../dataset/kline-columns.js';
import type { Market } from '../markets.js';

/** What a worker keeps of a Dataset for screens: each market's own snapshot table. */
export type AttachedMarkets = Partial<Record<Market, SnapshotTable>>;

/** Filter, sort and page the market's own snapshot table. */
export interface ScreenTask {
  kind: 'screen';
  /** The Dataset instance the task reads (pool.ts instanceKey). */
  version: string;
  market: Market;
  /** Sent only when the worker said it does not hold `version` yet. */
  attach?: AttachedMarkets;
  bounds: [column: string, min: number, max: number][];
  sort: string;
  descending: boolean;
  offset: number;
  limit: number;
}

/**
 * Fill rows [from, to) of a table as of `asOf`; row r is market symbol symbols[r]. Every array
 * is shared memory: the handles of one market's columns cost less to send than a round trip
 * asking whether the worker holds them.
 */
export interface DeriveTask {
  kind: 'derive';
  market: Market;
  klines: KlineColumns;
  fundamentals: FundamentalColumns;
  asOf: number;
  symbols: Int32Array;
  from: number;
  to: number;
  out: SnapshotRows;
}

export type PoolTask = ScreenTask | DeriveTask;

export type NotAttached = { attached: false };
export type ScreenTaskResult = NotAttached | { attached: true; total: number; rows: number[] };
/** A derivation answers nothing: its rows are in `out`. */
export type DeriveTaskResult = null;
export type PoolTaskResult = ScreenTaskResult | DeriveTaskResult;
