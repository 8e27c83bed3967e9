// Screen order: by one column, nulls last in both directions, ties by symbol ascending.

/** Compares row positions by `column` in screen order (positions are symbol order). */
export function screenComparator(column: Float64Array, descending: boolean): (a: number, b: number) => number {
  const sign = descending ? -1 : 1;
  return (a, b) => {
    const x = column[a];
    const y = column[b];
    if (x !== x) return y !== y ? a - b : 1; // null last
    if (y !== y) return -1;
    return x === y ? a - b : (x < y ? -1 : 1) * sign;
  };
}

/** Sorts `rows` in place into screen order. */
export function screenSort(rows: Uint32Array, column: Float64Array, descending: boolean): Uint32Array {
  return rows.sort(screenComparator(column, descending));
}
