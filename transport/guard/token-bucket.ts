// The per-key token bucket (capacity = the plan's requests per minute, refilled continuously at
// rpm/60 a second, full for a new key), as pure functions over a two-field state.

/**
 * Bucket contents are counted in 1/60,000ths of a token, so a bucket of `rpm` requests a
 * minute refills exactly `rpm` units a millisecond: with integer clocks every figure
 * (remaining tokens, Retry-After) is exact integer arithmetic, free of float drift.
 */
export const UNITS_PER_TOKEN = 60_000;

/** The mutable state of one bucket. Any object with these fields will do (the guard's key state is one). */
export interface BucketState {
  /** Contents in units (see {@link UNITS_PER_TOKEN}). */
  units: number;
  /** Clock reading (ms) the contents were last refilled to. */
  lastMs: number;
}

/** Capacity in units of a bucket of `rpm` requests a minute. */
export function capacityUnits(rpm: number): number {
  return rpm * UNITS_PER_TOKEN;
}

/** Puts a bucket in the state of a new key: full. */
export function fillBucket(b: BucketState, rpm: number, nowMs: number): void {
  b.units = capacityUnits(rpm);
  b.lastMs = nowMs;
}

/**
 * Adds what accrued since `lastMs`. A clock that reads earlier than `lastMs` grants
 * nothing and leaves `lastMs` alone, so time is never counted twice when it steps back.
 */
export function refill(b: BucketState, rpm: number, nowMs: number): void {
  if (nowMs <= b.lastMs) return;
  const units = b.units + (nowMs - b.lastMs) * rpm;
  const cap = rpm * UNITS_PER_TOKEN;
  b.units = units < cap ? units : cap;
  b.lastMs = nowMs;
}

/**
 * Refills, then takes one token if a whole one is there. An empty bucket takes nothing
 * (no debt): a refused client that waits `Retry-After` is then served.
 */
export function take(b: BucketState, rpm: number, nowMs: number): boolean {
  refill(b, rpm, nowMs);
  if (b.units < UNITS_PER_TOKEN) return false;
  b.units -= UNITS_PER_TOKEN;
  return true;
}

/** Whole tokens in the bucket now (`X-RateLimit-Remaining` after a take). */
export function wholeTokens(b: BucketState): number {
  return Math.floor(b.units / UNITS_PER_TOKEN);
}

/** Whole seconds, at least 1, until the bucket holds one token: `Retry-After` of a rate refusal. */
export function retryAfterSeconds(b: BucketState, rpm: number): number {
  const waitMs = Math.ceil((UNITS_PER_TOKEN - b.units) / rpm);
  const s = Math.ceil(waitMs / 1000);
  return s > 1 ? s : 1;
}

/** Whole seconds (rounded up) until the bucket is full again: `X-RateLimit-Reset`; 0 when it is full. */
export function secondsToFull(b: BucketState, rpm: number): number {
  const missing = capacityUnits(rpm) - b.units;
  return missing <= 0 ? 0 : Math.ceil(missing / rpm / 1000);
}
