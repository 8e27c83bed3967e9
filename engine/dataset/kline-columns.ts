// One market's daily K-lines as columns sorted by (symbol, date).

/**
 * Rows of symbol i are [offsets[i], offsets[i+1]). Dates are days since 1970-01-01;
 * values are as stored (unadjusted), NaN for null. In a Dataset every array is backed by
 * a SharedArrayBuffer so pool workers read the same memory; nothing ever writes to it
 * after the Dataset is built, which is what makes sharing it without locks safe.
 */
export interface KlineColumns {
  offsets: Int32Array;
  date: Int32Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  amount: Float64Array;
  adj_factor: Float64Array;
}

/** The value columns of a K-line block, in storage order. */
export const KLINE_VALUE_COLUMNS = ['open', 'high', 'low', 'close', 'volume', 'amount', 'adj_factor'] as const;
export type KlineValueColumn = (typeof KLINE_VALUE_COLUMNS)[number];

/** Dated rows of fundamentals per symbol, same layout; only the columns a snapshot supplied. */
export interface FundamentalColumns {
  offsets: Int32Array;
  date: Int32Array;
  columns: Record<string, Float64Array>;
}

/** Allocates `length` elements of shared memory as the given typed array. */
export function sharedFloat64(length: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(length * Float64Array.BYTES_PER_ELEMENT));
}

export function sharedInt32(length: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(length * Int32Array.BYTES_PER_ELEMENT));
}
