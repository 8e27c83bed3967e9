// GET /{market}/calendar: the market's trading days (stored with the market), a window of them, paged.

import type { MarketData } from '../dataset/dataset.js';
import { lowerBound, upperBound } from '../kernels/date-range.js';
import { tradingDays } from '../kernels/trading-days.js';

/**
 * Trading days of markets from parts stored before the days were stored with them, made on the
 * first ask and kept as long as its MarketData: a Dataset is immutable, so the days never go
 * stale, and a reload's new Dataset has new MarketData (the old entries go with the old
 * Dataset). Per thread: a pass over every row's date (30–50 ms for ashare or usstock).
 */
const calendars = new WeakMap<MarketData, Int32Array>();

/** Every day on which at least one symbol of the market has a K-line row, ascending (days since epoch). Lives as long as `m`; never written to. */
export function marketCalendar(m: MarketData): Int32Array {
  if (m.tradingDays !== null) return m.tradingDays;
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
