// GET /{market}/export: every chosen symbol's rows (or period bars) in a date range, counted before
// the first byte and then read one symbol at a time, so memory stays flat whatever the size.

import type { KlineField } from '../columns.js';
import type { MarketData } from '../dataset/dataset.js';
import type { AdjustMode } from '../kernels/adjust.js';
import { lowerBound, upperBound } from '../kernels/date-range.js';
import { nextPeriodStart, type Period } from '../kernels/periods.js';
import { type KlineSlice, klineSlice, periodSlice } from './klines.js';

export interface ExportQuery {
  /** Positions of the symbols, ascending (the export's order), or every symbol of the market. */
  symbols: Int32Array;
  start: number | null;
  end: number | null;
  period: Period;
  adj: AdjustMode;
  fields: readonly KlineField[];
}

/** Rows [from, to) of symbol `i` in the date range. */
function range(m: MarketData, i: number, q: ExportQuery): [from: number, to: number] {
  const k = m.klines;
  const from = q.start === null ? k.offsets[i] : lowerBound(k.date, k.offsets[i], k.offsets[i + 1], q.start);
  const to = q.end === null ? k.offsets[i + 1] : upperBound(k.date, from, k.offsets[i + 1], q.end);
  return [from, Math.max(from, to)];
}

/** Bars of symbol `i` dated in the range: one step per bar over its dates, no bar built. */
function barsIn(m: MarketData, i: number, q: ExportQuery, period: Exclude<Period, 'day'>): number {
  const { date, offsets } = m.klines;
  let count = 0;
  for (let row = offsets[i]; row < offsets[i + 1]; ) {
    const next = lowerBound(date, row, offsets[i + 1], nextPeriodStart(period, date[row]));
    const barDate = date[next - 1]; // a bar is dated by its last day
    if ((q.start === null || barDate >= q.start) && (q.end === null || barDate <= q.end)) count++;
    row = next;
  }
  return count;
}

/** The rows (or bars) the export holds: what it charges, known before anything is sent. */
export function exportRows(m: MarketData, q: ExportQuery): number {
  let total = 0;
  for (const i of q.symbols) {
    if (q.period === 'day') {
      const [from, to] = range(m, i, q);
      total += to - from;
    } else total += barsIn(m, i, q, q.period);
  }
  return total;
}

/** Symbol `i`'s part of the export: its rows in the range, adjusted (qfq to its latest factor), or its bars. */
export function exportSlice(m: MarketData, i: number, q: ExportQuery): KlineSlice {
  const window = { start: q.start, end: q.end, offset: 0, limit: Number.MAX_SAFE_INTEGER }; // no limit: every row of the range
  return q.period === 'day'
    ? klineSlice(m, i, window, q.adj, q.fields)
    : periodSlice(m, i, window, q.period, q.adj, q.fields);
}
