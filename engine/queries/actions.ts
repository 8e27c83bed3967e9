// GET /{market}/actions/{symbol}: the rows of one symbol whose adj_factor changed, within a date range.

import type { KlineColumns } from '../dataset/kline-columns.js';
import { lowerBound, upperBound } from '../kernels/date-range.js';
import { factorChanges } from '../kernels/factor-changes.js';

/**
 * Rows (positions in the market's K-line columns) of `symbol` dated in [start, end] (null:
 * unbounded) whose adj_factor differs from the symbol's row before, ascending. The row
 * before may lie outside the range: an event on `start` itself is found.
 */
export function adjustmentEvents(
  k: KlineColumns,
  symbol: number,
  start: number | null,
  end: number | null,
): Uint32Array {
  const rowsFrom = k.offsets[symbol];
  const rowsTo = k.offsets[symbol + 1];
  const from = start === null ? rowsFrom : lowerBound(k.date, rowsFrom, rowsTo, start);
  const to = end === null ? rowsTo : upperBound(k.date, from, rowsTo, end);
  return factorChanges(k.adj_factor, rowsFrom, from, to);
}
