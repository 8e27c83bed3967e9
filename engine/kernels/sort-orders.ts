// Precomputed screen orders: every numeric column's rows sorted once per Dataset.

import { screenComparator } from './screen-sort.js';

/**
 * Positions of all rows of `column` in screen order (nulls last, ties by symbol). A Dataset
 * never changes, so a screen walks one of these instead of sorting per request; the sort
 * runs once, at load.
 */
export function sortOrder(column: Float64Array, descending: boolean, alloc: (n: number) => Uint32Array): Uint32Array {
  const order = alloc(column.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort(screenComparator(column, descending));
}
