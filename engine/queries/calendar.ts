// GET /{market}/calendar: the market's trading days (derived once per market of a Dataset), a window of them, paged.

import type { MarketData } from '../dataset/dataset.js';
import { lowerBound, upperBound } from '../kernels/date-range.js';
import { tradingDays } from '../kernels/trading-days.js';

/**
 * Each market's trading days, made on the first ask and kept as long as its MarketData: a
 * Dataset is immutable, so the days never go stale, and a reload's new Dataset has new
 * MarketData (the old entries go with the old Dataset). Per thread: each serving thread
 * derives its own on its first calendar request (a few milliseconds for 25 years of ashare).
 */
const calendars = new WeakMap<MarketData, Int32Array>();

/** Every day on which at least one symbol of the market has a K-line row, ascending (days since epoch). Lives as long as `m`; never written to. */
export function marketCalendar(m: MarketData): Int32Array {
  let days = calendars.get(m);
  if (days === undefined) {
    days =
      m.firstDate === null || m.lastDate === null
        ? new Int32Array(0)
        : tradingDays(m.klines.date, m.firstDate, m.lastDate);
    calendars.set(m, days);
  }
  return days;
}

export interface CalendarQuery {
  /** First day (days since epoch, inclusive) or null: from the market's first day. */
  start: number | null;
  /** Last day (inclusive) or null: to the market's last day. */
  end: number | null;
  /** Days of the window to skip, from its first (earliest) day. */
  offset: number;
  limit: number;
}

/**
 * The window's days after `offset`, at most `limit`, as a view of the market's calendar
 * (valid as long as the Dataset), and `total`: the days in [start, end].
 */
export function queryCalendar(m: MarketData, q: CalendarQuery): { days: Int32Array; total: number } {
  const all = marketCalendar(m);
  const lo = q.start === null ? 0 : lowerBound(all, 0, all.length, q.start);
  const hi = q.end === null ? all.length : upperBound(all, lo, all.length, q.end);
  const from = Math.min(lo + q.offset, hi);
  return { days: all.subarray(from, Math.min(from + q.limit, hi)), total: hi - lo };
}
