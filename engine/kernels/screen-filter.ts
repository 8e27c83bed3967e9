// Screen filter: which snapshot rows satisfy every inclusive [min, max] bound.

/** A bound on one column; a null column value never satisfies it. */
export interface Bound {
  column: Float64Array;
  min: number;
  max: number;
}

/** Positions (ascending) of the rows within every bound. */
export function screenFilter(size: number, bounds: readonly Bound[]): Uint32Array {
  const out = new Uint32Array(size);
  let n = 0;
  for (let i = 0; i < size; i++) {
    let keep = true;
    for (let b = 0; b < bounds.length && keep; b++) {
      const v = bounds[b].column[i];
      keep = v >= bounds[b].min && v <= bounds[b].max; // false for NaN (null)
    }
    if (keep) out[n++] = i;
  }
  return out.subarray(0, n);
}
