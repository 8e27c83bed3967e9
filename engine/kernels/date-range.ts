// Binary searches over a sorted Int32 date column.

/** First index in [from, to) whose date is ≥ day (`to` if none). */
export function lowerBound(dates: Int32Array, from: number, to: number, day: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dates[mid] < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [from, to) whose date is > day (`to` if none). */
export function upperBound(dates: Int32Array, from: number, to: number, day: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dates[mid] <= day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
