// The K-line window, single and batch alike: which rows of one symbol a query answers.

import { lowerBound, upperBound } from './date-range.js';

export interface WindowQuery {
  /** First day (days since epoch) or null: anchors the window at its start. */
  start: number | null;
  /** Last day or null (the latest row). */
  end: number | null;
  offset: number;
  limit: number;
}

/** Rows [from, to) of the market's columns; `total` counts the date range before offset/limit. */
export interface KlineWindow {
  from: number;
  to: number;
  total: number;
}

/**
 * With `start` the window begins at the first row on or after it and `offset` skips
 * forward; without, it ends at the last row on or before `end` (or the latest) and
 * `offset` skips backward, so `limit=5` alone is the five most recent days.
 * `rowsFrom`/`rowsTo` are the symbol's rows; rows come out ascending either way.
 */
export function klineWindow(dates: Int32Array, rowsFrom: number, rowsTo: number, q: WindowQuery): KlineWindow {
  const lo = q.start === null ? rowsFrom : lowerBound(dates, rowsFrom, rowsTo, q.start);
  const hi = q.end === null ? rowsTo : upperBound(dates, lo, rowsTo, q.end);
  const total = Math.max(0, hi - lo);
  if (q.start !== null) {
    const from = Math.min(lo + q.offset, hi);
    return { from, to: Math.min(from + q.limit, hi), total };
  }
  const to = Math.max(hi - q.offset, lo);
  return { from: Math.max(to - q.limit, lo), to, total };
}
