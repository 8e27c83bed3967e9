// Log-spaced latency buckets (4 per octave of microseconds) and percentiles read off their counts.

/** Buckets per doubling: each spans ~19 %, so a percentile is within ~±9 % of the truth. */
const PER_OCTAVE = 4;
/** 0: under 1 µs; then 1 µs … 2^30 µs (~18 minutes); the last one takes everything above. */
export const BUCKETS = 2 + 30 * PER_OCTAVE;

/** The bucket of a duration in milliseconds (no allocation). */
export function bucketOf(ms: number): number {
  const us = ms * 1000;
  if (!(us >= 1)) return 0; // also NaN
  const b = 1 + Math.floor(Math.log2(us) * PER_OCTAVE);
  return b < BUCKETS ? b : BUCKETS - 1;
}

/** The representative value of bucket `b` in milliseconds (its geometric middle). */
export function bucketMs(b: number): number {
  return b === 0 ? 0.0005 : 2 ** ((b - 0.5) / PER_OCTAVE) / 1000;
}

/** The `q`-quantile (0–1) of counts `counts[from … from+BUCKETS)`, in ms; null when empty. */
export function quantileMs(counts: ArrayLike<number>, q: number, from = 0): number | null {
  let total = 0;
  for (let b = 0; b < BUCKETS; b++) total += counts[from + b];
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let b = 0; b < BUCKETS; b++) {
    seen += counts[from + b];
    if (seen >= rank) return bucketMs(b);
  }
  return bucketMs(BUCKETS - 1);
}
