// Price adjustment (qfq / hfq) over a slice of one symbol's rows.

import { upperBound } from './date-range.js';
import { round4 } from './round.js';

export type AdjustMode = 'bfq' | 'qfq' | 'hfq';

/**
 * The largest adjusted price (in absolute value) a snapshot may produce; the loader
 * refuses a row beyond it, so no answer can hold Infinity. Far above any real price
 * times any real factor, and short of where JavaScript prints numbers with an exponent.
 */
export const MAX_ADJUSTED_PRICE = 1e15;

/**
 * The adjustment of `price` that leaves ±MAX_ADJUSTED_PRICE, as adjustPrices computes it
 * (hfq: price × adj; qfq: price × (adj / latestAdj); qfq to another day's factor, as
 * `qfq_base` or a past snapshot (`as_of`) asks: price × (adj / that factor), largest at the
 * symbol's smallest factor `minAdj`), or null when all stay within. A null price (NaN)
 * adjusts to null and is always within.
 */
export function adjustmentOutOfBounds(
  price: number,
  adj: number,
  latestAdj: number,
  minAdj = latestAdj,
): 'hfq' | 'qfq' | 'qfq_base' | null {
  if (price !== price) return null;
  if (!(Math.abs(price * (adj / 1)) <= MAX_ADJUSTED_PRICE)) return 'hfq';
  if (!(Math.abs(price * (adj / latestAdj)) <= MAX_ADJUSTED_PRICE)) return 'qfq';
  if (!(Math.abs(price * (adj / minAdj)) <= MAX_ADJUSTED_PRICE)) return 'qfq_base';
  return null;
}

/**
 * Writes the adjusted prices of rows [from, to) into `out` (length ≥ to − from), rounded
 * to 4 decimals. hfq = price × adj_factor; qfq = price × (adj_factor / adj_factor of
 * `baseRow`): the symbol's latest stored day by default, so on that day qfq equals bfq
 * exactly; with `qfq_base` the last stored day on or before it (qfqBaseRow).
 * bfq is not an adjustment: callers answer stored prices directly.
 */
export function adjustPrices(
  prices: Float64Array,
  adj: Float64Array,
  from: number,
  to: number,
  mode: 'qfq' | 'hfq',
  baseRow: number,
  out: Float64Array,
): Float64Array {
  const base = mode === 'qfq' ? adj[baseRow] : 1;
  // out[k] = adjustedPrice(prices[row], priceScale(adj, row, mode, baseRow)), with the base read once
  for (let row = from, k = 0; row < to; row++, k++) out[k] = round4(prices[row] * (adj[row] / base));
  return out;
}

/**
 * What row `row`'s prices are multiplied by: 1 for bfq, its factor for hfq, its factor over
 * `baseRow`'s for qfq (as adjustPrices multiplies them).
 */
export function priceScale(adj: Float64Array, row: number, mode: AdjustMode, baseRow: number): number {
  return mode === 'bfq' ? 1 : adj[row] / (mode === 'qfq' ? adj[baseRow] : 1);
}

/** One price of a qfq or hfq answer: times its row's scale (priceScale), rounded as adjustPrices rounds (bfq answers prices as stored). */
export const adjustedPrice = (price: number, scale: number): number => round4(price * scale);

/** Convenience for one column: a fresh array of the adjusted slice. */
export function adjustedSlice(
  prices: Float64Array,
  adj: Float64Array,
  from: number,
  to: number,
  mode: 'qfq' | 'hfq',
  baseRow: number,
): Float64Array {
  return adjustPrices(prices, adj, from, to, mode, baseRow, new Float64Array(Math.max(0, to - from)));
}

/**
 * The qfq base row of a symbol whose rows are [first, end) (dates ascending): the last row
 * dated on or before `day`, the latest row when `day` is null, or -1 when no row is that early.
 */
export function qfqBaseRow(dates: Int32Array, first: number, end: number, day: number | null): number {
  const row = (day === null ? end : upperBound(dates, first, end, day)) - 1;
  return row >= first ? row : -1;
}
