// Screen over a precomputed order: a filter pass for the count, then the page in order.

import type { Bound } from './screen-filter.js';

let mask = new Uint8Array(0);

/**
 * Rows in `order` within every bound: how many, and positions [offset, offset + limit) of
 * them. Bounds are tested column by column in sequential passes over a reused mask
 * (cache-friendly, no allocation); then the order is walked only until the page is full.
 */
export function screenWalk(order: Uint32Array, bounds: readonly Bound[], offset: number, limit: number): { total: number; rows: number[] } {
  const n = order.length;
  if (mask.length < n) mask = new Uint8Array(n);
  mask.fill(1, 0, n);
  for (const { column, min, max } of bounds) {
    // mask[i] &= min <= column[i] <= max, false for NaN (null)
    for (let i = 0; i < n; i++) if (!(column[i] >= min && column[i] <= max)) mask[i] = 0;
  }
  let total = 0;
  for (let i = 0; i < n; i++) total += mask[i];
  const rows: number[] = [];
  const end = Math.min(offset + limit, total);
  for (let k = 0, seen = 0; k < n && seen < end; k++) {
    const i = order[k];
    if (mask[i] === 0) continue;
    if (seen >= offset) rows.push(i);
    seen++;
  }
  return { total, rows };
}
