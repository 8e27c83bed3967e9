// Screen order: by one column, nulls last in both directions, ties by symbol ascending.

/**
 * Sorts `rows` (positions ascending, which is symbol order) in place by `column`.
 * Stable, so equal values keep symbol order.
 */
export function screenSort(rows: Uint32Array, column: Float64Array, descending: boolean): Uint32Array {
  const sign = descending ? -1 : 1;
  return rows.sort((a, b) => {
    const x = column[a];
    const y = column[b];
    if (x !== x) return y !== y ? a - b : 1; // null last
    if (y !== y) return -1;
    return x === y ? a - b : (x < y ? -1 : 1) * sign;
  });
}
