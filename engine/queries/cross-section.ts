// GET /{market}/klines?date=D: every symbol's row of one day, by symbol.

import type { MarketData } from '../dataset/dataset.js';
import { RowOfDay } from './row-of-day.js';

/** The rows of one day: `rows[n]` belongs to symbol `symbols[n]`, symbols ascending. */
export interface DayRows {
  symbols: Int32Array;
  rows: Int32Array;
}

/**
 * Each symbol's row dated `day` (symbols without one are left out), found from the day's
 * place on the calendar (RowOfDay): a probe or a few a symbol, not a scan of ashare's 7 M rows.
 */
export function rowsOfDay(m: MarketData, day: number): DayRows {
  const n = m.symbols.size;
  const symbols = new Int32Array(n);
  const rows = new Int32Array(n);
  const rowOf = new RowOfDay(m, day);
  let found = 0;
  for (let i = 0; i < n; i++) {
    const row = rowOf.of(i);
    if (row >= 0) (symbols[found] = i), (rows[found] = row), found++;
  }
  return { symbols: symbols.subarray(0, found), rows: rows.subarray(0, found) };
}

/** Days of each market whose rows a `DayRowsCache` keeps: a day's pages each ask for it again. */
export const KEPT_DAYS = 32;

/**
 * `rowsOfDay` of one Dataset, kept for the last KEPT_DAYS days asked of each market (~24 KB a
 * day for ashare): the second page of a day costs a Map lookup, not 3,000 binary searches over the
 * memory map. The rows are shared: callers read them, never write.
 */
export class DayRowsCache {
  /** Per market, the days asked last, the latest last. */
  private readonly days = new Map<MarketData, Map<number, DayRows>>();

  of(m: MarketData, day: number): DayRows {
    let days = this.days.get(m);
    if (days === undefined) this.days.set(m, (days = new Map()));
    let rows = days.get(day);
    if (rows !== undefined) {
      days.delete(day); // the latest last: the oldest is the first to go
      days.set(day, rows);
      return rows;
    }
    rows = rowsOfDay(m, day);
    if (days.size >= KEPT_DAYS) days.delete(days.keys().next().value as number);
    days.set(day, rows);
    return rows;
  }
}
