// Rounding of answered values: prices to 4 decimals, adjustment ratios to 6.

/** Nudge of two ulps: x·1e4 can land just under a .5 the decimal text has (0.00015·1e4 = 1.4999999999999998). */
const TIE_NUDGE = 1 + 2 * Number.EPSILON;

/**
 * Rounds half away from zero to 4 decimals, as the decimal text of `x` reads (0.00015 →
 * 0.0002, 12.34565 → 12.3457). Beyond 1e11 a double has no 4th decimal to spare, so such
 * values are returned as they are. NaN (null) stays NaN and ±Infinity becomes NaN: no answer
 * may hold one (the loader refuses what would overflow; this covers snapshots stored before).
 */
export function round4(x: number): number {
  if (!(x < 1e11 && x > -1e11)) return x - x === 0 ? x : NaN;
  return x < 0 ? -Math.round(-x * 1e4 * TIE_NUDGE) / 1e4 : Math.round(x * 1e4 * TIE_NUDGE) / 1e4;
}

/**
 * Rounds half away from zero to 6 decimals, as `round4` does to 4 (an adjustment event's
 * ratio). Beyond 1e9 a double has no 6th decimal to spare: such values are returned as they
 * are; NaN stays NaN and ±Infinity becomes NaN.
 */
export function round6(x: number): number {
  if (!(x < 1e9 && x > -1e9)) return x - x === 0 ? x : NaN;
  return x < 0 ? -Math.round(-x * 1e6 * TIE_NUDGE) / 1e6 : Math.round(x * 1e6 * TIE_NUDGE) / 1e6;
}
