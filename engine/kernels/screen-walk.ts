// Screen over a precomputed order: one pass, no sort, the page collected on the way.

import type { Bound } from './screen-filter.js';

/** Rows in `order` within every bound: how many, and positions [offset, offset + limit) of them. */
export function screenWalk(order: Uint32Array, bounds: readonly Bound[], offset: number, limit: number): { total: number; rows: Uint32Array } {
  const page = new Uint32Array(Math.max(0, Math.min(limit, order.length - offset)));
  let total = 0;
  let taken = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    let keep = true;
    for (let b = 0; b < bounds.length && keep; b++) {
      const v = bounds[b].column[i];
      keep = v >= bounds[b].min && v <= bounds[b].max; // false for NaN (null)
    }
    if (!keep) continue;
    if (total >= offset && taken < page.length) page[taken++] = i;
    total++;
  }
  return { total, rows: page.subarray(0, taken) };
}
