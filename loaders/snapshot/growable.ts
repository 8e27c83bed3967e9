// Typed-array columns that grow while rows stream in, then trim to their length.

type NumericArray = Float64Array | Int32Array;

/** A set of same-length typed columns with amortised O(1) appends. */
export class GrowableColumns<C extends Record<string, NumericArray>> {
  length = 0;
  private capacity: number;

  constructor(
    public columns: C,
    initialCapacity: number,
  ) {
    this.capacity = initialCapacity;
  }

  /** Makes room for one more row and returns its index; write the cells directly. */
  next(): number {
    if (this.length === this.capacity) this.grow();
    return this.length++;
  }

  private grow(): void {
    this.capacity = Math.max(1024, this.capacity * 2);
    for (const key of Object.keys(this.columns) as (keyof C)[]) {
      const old = this.columns[key];
      const bigger = new (old.constructor as new (n: number) => NumericArray)(this.capacity);
      bigger.set(old);
      this.columns[key] = bigger as C[keyof C];
    }
  }

  /** The columns cut to `length` (views sharing memory with the buffers). */
  trimmed(): C {
    const out = {} as C;
    for (const key of Object.keys(this.columns) as (keyof C)[]) {
      out[key] = this.columns[key].subarray(0, this.length) as C[keyof C];
    }
    return out;
  }
}

/** Columns of `size` rows, each a Float64Array, keyed by name. */
export function float64Columns<N extends string>(names: readonly N[], size: number): Record<N, Float64Array> {
  const out = {} as Record<N, Float64Array>;
  for (const name of names) out[name] = new Float64Array(size);
  return out;
}
