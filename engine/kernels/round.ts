// Rounding of answered values to 4 decimals.

/**
 * Rounds half away from zero to 4 decimals. Beyond 1e11 a double has no 4th decimal
 * to spare, so such values are returned as they are rather than disturbed by x·1e4.
 * NaN (null) stays NaN.
 */
export function round4(x: number): number {
  if (!(x < 1e11 && x > -1e11)) return x;
  return x < 0 ? -Math.round(-x * 1e4) / 1e4 : Math.round(x * 1e4) / 1e4;
}
