// GET /{market}/screen: filter the latest snapshots by bounds, sort, page.

import type { SnapshotTable } from '../kernels/derive-snapshot.js';
import { type Bound, screenFilter } from '../kernels/screen-filter.js';
import { screenSort } from '../kernels/screen-sort.js';

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
  rows: Uint32Array;
}

/** Every matching row is counted; only the page is returned. Columns must exist in the table. */
export function screen(table: SnapshotTable, q: ScreenQuery): ScreenResult {
  const bounds: Bound[] = [...q.bounds].map(([name, b]) => ({ column: table.values[name], min: b.min, max: b.max }));
  const matched = screenFilter(table.size, bounds);
  const sorted = screenSort(matched, table.values[q.sort], q.descending);
  return { total: matched.length, rows: sorted.subarray(q.offset, q.offset + q.limit) };
}
