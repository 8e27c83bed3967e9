// The quota day: local calendar day in the zone QUOTA_TZ and the instant of its next 00:00.

const MS_PER_DAY = 86_400_000;

/**
 * "No day yet". A small integer, not NaN: V8 keeps integer-only fields untagged (Smi), and
 * a double field would box a fresh number each time a non-inlined function returns it.
 */
export const NO_DAY = -100_000_000;
const MS_PER_HOUR = 3_600_000;

/** One formatter per zone: building an Intl.DateTimeFormat costs far more than using one. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    // Throws RangeError for a zone the runtime does not know: callers fail at start-up.
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Local calendar date of `ms` in `timeZone`, as days since 1970-01-01 (of that local date). */
export function localDayNumber(ms: number, timeZone: string): number {
  if (timeZone === 'UTC') return Math.floor(ms / MS_PER_DAY); // the default needs no Intl (see QuotaDay)
  let y = 0,
    m = 0,
    d = 0;
  for (const p of formatterFor(timeZone).formatToParts(ms)) {
    if (p.type === 'year') y = Number(p.value);
    else if (p.type === 'month') m = Number(p.value);
    else if (p.type === 'day') d = Number(p.value);
  }
  return Date.UTC(y, m - 1, d) / MS_PER_DAY;
}

/** `YYYY-MM-DD` of a day number. */
export function dayLabel(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/**
 * First instant after `fromMs` whose local date is later than `day`: 00:00 of the next day,
 * or the first minute that exists when a DST gap swallows midnight. Stepping by hours and
 * then bisecting to the millisecond needs no offset arithmetic, so it holds in any zone.
 */
export function nextDayStart(fromMs: number, day: number, timeZone: string): number {
  let lo = fromMs;
  let hi = fromMs + MS_PER_HOUR;
  while (localDayNumber(hi, timeZone) <= day) {
    lo = hi;
    hi += MS_PER_HOUR;
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDayNumber(mid, timeZone) > day) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The current quota day of one zone. `day(nowMs)` compares one number on the hot path;
 * Intl runs only when the clock passes the cached boundary (once a day). The day never
 * moves backwards: a clock that steps back keeps the day it had.
 */
export class QuotaDay {
  /** Days since 1970-01-01 of the current local date ({@link NO_DAY} before the first call). */
  current = NO_DAY;
  /** `YYYY-MM-DD` of the current day: the usage store's day key. */
  label = '';
  /** Epoch ms of the next reset (next local 00:00). */
  nextResetMs = Number.NEGATIVE_INFINITY;
  /** `nextResetMs` as an ISO 8601 instant (`/quota`'s `reset_at`). */
  resetAt = '';

  /** @throws RangeError when `timeZone` is not an IANA zone the runtime knows. */
  constructor(readonly timeZone: string = 'UTC') {
    // UTC, the default, is arithmetic: a start then never builds a formatter (the first costs ~20 ms, ICU's zone data).
    if (timeZone !== 'UTC') formatterFor(timeZone);
  }

  /** The quota day at `nowMs`, as a day number. */
  day(nowMs: number): number {
    if (nowMs >= this.nextResetMs) this.advance(nowMs);
    return this.current;
  }

  private advance(nowMs: number): void {
    const local = localDayNumber(nowMs, this.timeZone);
    if (local > this.current) {
      this.current = local;
      this.label = dayLabel(local);
    }
    this.nextResetMs = nextDayStart(nowMs, this.current, this.timeZone);
    this.resetAt = new Date(this.nextResetMs).toISOString();
  }
}
