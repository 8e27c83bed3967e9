// Each symbol's row of one day, found from where the day sits on the market's calendar.

import type { MarketData } from '../dataset/dataset.js';
import { lowerBound } from '../kernels/date-range.js';
import { marketCalendar } from './calendar.js';

/** Where each symbol's rows sit on its market's calendar: the positions of its first and last days. */
interface CalendarSpans {
  first: Int32Array;
  last: Int32Array;
}

const spans = new WeakMap<MarketData, CalendarSpans>();

/** The spans of `m`, made on first use and kept as long as `m` (a Dataset never changes). */
function spansOf(m: MarketData): CalendarSpans {
  let s = spans.get(m);
  if (s !== undefined) return s;
  const calendar = marketCalendar(m);
  const { date, offsets } = m.klines;
  const n = m.symbols.size;
  const first = new Int32Array(n);
  const last = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const [from, to] = [offsets[i], offsets[i + 1]];
    if (from === to)
      (first[i] = 1), (last[i] = 0); // no rows: an empty span
    else
      (first[i] = lowerBound(calendar, 0, calendar.length, date[from])),
        (last[i] = lowerBound(calendar, 0, calendar.length, date[to - 1]));
  }
  spans.set(m, (s = { first, last }));
  return s;
}

/**
 * Finds symbols' rows dated `day`. A symbol's k-th row is at least k trading days after its
 * first, and its rows after the day fit in the trading days after it, so the row can only lie
 * in a range as wide as the days the symbol missed between its first and last: a few probes for
 * a symbol suspended now and then, where a binary search over its whole history probes ~12
 * times (each a likely cache miss in a column of 7 M rows). A symbol that traded every day of
 * its span (88 % of the bench's ashare) has its row at the day's place in the span, read from
 * no row at all.
 */
export class RowOfDay {
  private readonly spans: CalendarSpans;
  /** The day's position on the market's calendar; −1 when no symbol trades that day. */
  private readonly at: number;

  constructor(
    private readonly m: MarketData,
    private readonly day: number,
  ) {
    this.spans = spansOf(m);
    const calendar = marketCalendar(m);
    const at = lowerBound(calendar, 0, calendar.length, day);
    this.at = calendar[at] === day ? at : -1;
  }

  /** The row of symbol `i` dated the day, or −1. */
  of(i: number): number {
    const { at } = this;
    const { first, last } = this.spans;
    if (at < first[i] || at > last[i]) return -1; // −1 is below every first
    const { date, offsets } = this.m.klines;
    const from = offsets[i];
    const rows = offsets[i + 1] - from;
    const hi = Math.min(rows - 1, at - first[i]);
    if (last[i] - first[i] + 1 === rows) return from + hi; // no day missed: rows and trading days pair up
    const lo = Math.max(0, rows - 1 - (last[i] - at));
    const row = lowerBound(date, from + lo, from + hi + 1, this.day);
    return row <= from + hi && date[row] === this.day ? row : -1;
  }
}
