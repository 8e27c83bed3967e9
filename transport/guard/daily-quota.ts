// The daily row quota (a request is refused once no rows are left; one that starts with rows left is
// served whole and charged in full) and request count, as pure functions over a key's usage.

import type { QuotaDay } from './quota-day.js';

/** The mutable usage of one key for its current day. */
export interface DayUsage {
  /** Day number the counts belong to (see {@link QuotaDay}). */
  day: number;
  /** `YYYY-MM-DD` of `day`: where the counts are stored. */
  dayLabel: string;
  /** Rows charged this day. */
  used: number;
  /** Authenticated requests this day, refused ones included. */
  requests: number;
  /** Requests refused 429 rate_limited this day. */
  rateLimited: number;
  /** Requests refused 429 quota_exhausted (or export_quota_exhausted) this day. */
  quotaExhausted: number;
  /** Rows exported this day (the export allowance's count). */
  exported: number;
  /** Keeps the ending day's counts (still to be stored) before they are zeroed. */
  closeDay?(): void;
}

/** Starts a fresh day (zero counts) when the clock's day is not the usage's day; `closeDay` sees the old counts first. */
export function rollDay(u: DayUsage, clock: QuotaDay, nowMs: number): void {
  const d = clock.day(nowMs);
  if (u.day !== d) {
    u.closeDay?.();
    u.day = d;
    u.dayLabel = clock.label;
    u.used = 0;
    u.requests = 0;
    u.rateLimited = 0;
    u.quotaExhausted = 0;
    u.exported = 0;
  }
}

/** Rows left: `max(0, quota - used)`. A request that started with rows left may overshoot `used`. */
export function rowsLeft(quota: number, used: number): number {
  return used >= quota ? 0 : quota - used;
}

/** Whole seconds, at least 1, until the day resets: `Retry-After` of a quota refusal. */
export function secondsToReset(clock: QuotaDay, nowMs: number): number {
  clock.day(nowMs);
  const s = Math.ceil((clock.nextResetMs - nowMs) / 1000);
  return s > 1 ? s : 1;
}
