// GET /{market}/screen: filter the latest snapshots by bounds, sort, page.

import type { SnapshotTable } from '../kernels/derive-snapshot.js';
import { screenFilter } from '../kernels/screen-filter.js';
import { screenSort } from '../kernels/screen-sort.js';
import { type OrderedBound, screenWalk } from '../kernels/screen-walk.js';

export interface ScreenQuery {
  /** Column name → inclusive bounds (±Infinity when only one side is given). */
  bounds: ReadonlyMap<string, { min: number; max: number }>;
  sort: string;
  descending: boolean;
  offset: number;
  limit: number;
}

export interface ScreenResult {
  total: number;
  /** Snapshot positions of the page, in answer order. */
  rows: ArrayLike<number>;
}

const boundsOf = (table: SnapshotTable, q: ScreenQuery): OrderedBound[] =>
  [...q.bounds].map(([name, b]) => ({
    column: table.values[name],
    ascending: table.ascending[name],
    min: b.min,
    max: b.max,
  }));

/** Every matching row is counted; only the page is returned. Uses the precomputed orders of the bounded and sort columns. */
export function screen(table: SnapshotTable, q: ScreenQuery): ScreenResult {
  const order = (q.descending ? table.descending : table.ascending)[q.sort];
  return screenWalk(order, boundsOf(table, q), q.offset, q.limit);
}

/** The naive way, kept as the bench's baseline and the tests' reference: filter, then sort the survivors. */
export function screenBySorting(table: SnapshotTable, q: ScreenQuery): ScreenResult {
  const matched = screenFilter(table.size, boundsOf(table, q));
  const sorted = screenSort(matched, table.values[q.sort], q.descending);
  return { total: matched.length, rows: sorted.subarray(q.offset, q.offset + q.limit) };
}
