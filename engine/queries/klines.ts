// The K-line query, single, batch and cross-section alike: which rows (or period bars) of which
// symbols an answer holds, how many, and adjusted by which factor. The one caller of the K-line
// kernels (kline-window, adjust, periods): a route asks it once per request, and every renderer
// (the JSON rows and their cache, the plain value of the other formats, the export, the stream's
// bars) reads the one result it gives; none works a window out again.

import { type KlineField, PRICE_FIELDS } from '../columns.js';
import type { MarketData } from '../dataset/dataset.js';
import { type AdjustMode, adjustedPrice, adjustedSlice, priceScale, qfqBaseRow } from '../kernels/adjust.js';
import { lowerBound, upperBound } from '../kernels/date-range.js';
import { klineWindow, type WindowQuery } from '../kernels/kline-window.js';
import { type Bars, nextPeriodStart, type Period, PERIODS, periodBars } from '../kernels/periods.js';
import type { BarsCache } from './bars-cache.js';
import { RowOfDay } from './row-of-day.js';

export { adjustedPrice, PERIODS };
export type { AdjustMode, Bars, Period, WindowQuery };

/** What a K-line answer asks, whichever symbols it names. */
export interface KlineAsk {
  /** The window: with `start` it begins there and `offset` skips forward, else it ends at `end` (or the latest row) and `offset` skips backward. */
  window: WindowQuery;
  adj: AdjustMode;
  /** Days, or bars of weeks to years (built from all their days: a window never cuts a bar). */
  period: Period;
  /** The selected fields, in response order. */
  fields: readonly KlineField[];
}

/** One symbol's part of an answer. */
export interface SymbolWindow {
  /** Its position in the market. */
  i: number;
  /** Rows [from, to) of the market's columns (days), or of `bars` (a period). */
  from: number;
  to: number;
  /** Rows (or bars) in the date range, before offset and limit. */
  total: number;
  /** The row whose factor qfq divides by (the symbol's latest unless `qfq_base` chose another); −1 without rows. */
  base: number;
  /** The symbol's bars of the asked period over its whole history, or null for days. Never written to. */
  bars: Bars | null;
}

/**
 * A K-line answer, as the query found it: the market, what was asked, each symbol's window in the
 * answer's order, and the rows they hold. Valid as long as the Dataset (its columns are views of it).
 */
export interface KlineResult {
  m: MarketData;
  ask: KlineAsk;
  windows: SymbolWindow[];
  /** Rows (or bars) over every window: what the answer holds and charges. */
  count: number;
  /** One symbol: its rows in the date range before offset and limit; a cross-section: the day's rows; a batch: `count`. */
  total: number;
  /** The day every window holds its row of (a batch's `date`, a cross-section's), or null. */
  day: number | null;
}

/**
 * Rows of one window as arrays indexed 0 … count−1. Stored columns are subarray views of the
 * Dataset (valid as long as it is); adjusted prices are fresh arrays owned by the slice.
 */
export interface KlineSlice {
  symbol: number;
  count: number;
  total: number;
  date: Int32Array;
  adjFactor: Float64Array;
  /** Only the requested fields. */
  values: Partial<Record<KlineField, Float64Array>>;
}

/** Symbol `i`'s latest row: the one qfq divides by unless `qfq_base` names another (−1 without rows). */
export const latestRow = (m: MarketData, i: number): number =>
  m.klines.offsets[i + 1] > m.klines.offsets[i] ? m.klines.offsets[i + 1] - 1 : -1;

/** The row qfq divides by with `qfq_base=day` (the last on or before it), or −1 when symbol `i` has no row that early. */
export const qfqBaseOf = (m: MarketData, i: number, day: number | null): number =>
  qfqBaseRow(m.klines.date, m.klines.offsets[i], m.klines.offsets[i + 1], day);

/** The window of symbol `i` under `ask` (bars from `cache` when one is given), qfq to row `base`. */
function windowOf(m: MarketData, i: number, ask: KlineAsk, base: number, cache: BarsCache | null): SymbolWindow {
  const k = m.klines;
  if (ask.period === 'day') {
    const { from, to, total } = klineWindow(k.date, k.offsets[i], k.offsets[i + 1], ask.window);
    return { i, from, to, total, base, bars: null };
  }
  const bars = barsOf(m, i, ask.period, ask.adj, cache);
  const { from, to, total } = klineWindow(bars.date, 0, bars.count, ask.window);
  return { i, from, to, total, base, bars };
}

/** Symbol `i`'s bars of `period` over its whole history, adjusted by `adj` (qfq to its latest factor). */
function barsOf(
  m: MarketData,
  i: number,
  period: Exclude<Period, 'day'>,
  adj: AdjustMode,
  cache: BarsCache | null,
): Bars {
  const k = m.klines;
  const make = (): Bars => periodBars(k, k.offsets[i], k.offsets[i + 1], period, adj, k.offsets[i + 1] - 1);
  return cache === null ? make() : cache.of(m, i, period, adj, make);
}

/**
 * One symbol's answer: its window of rows or bars, and their total. `base` is qfq's row
 * (`qfqBaseOf`; by default the latest); `bars` keeps period bars between answers.
 */
export function klineQuery(
  m: MarketData,
  i: number,
  ask: KlineAsk,
  options: { base?: number; bars?: BarsCache | null } = {},
): KlineResult {
  const w = windowOf(m, i, ask, options.base ?? latestRow(m, i), options.bars ?? null);
  return { m, ask, windows: [w], count: w.to - w.from, total: w.total, day: null };
}

/** Several symbols' answer (`symbols` in answer order), each its own window (`limit` counts per symbol). */
export function klineBatch(
  m: MarketData,
  symbols: readonly number[],
  ask: KlineAsk,
  bars: BarsCache | null,
): KlineResult {
  const windows = new Array<SymbolWindow>(symbols.length);
  let count = 0;
  for (let n = 0; n < symbols.length; n++) {
    const w = (windows[n] = windowOf(m, symbols[n], ask, latestRow(m, symbols[n]), bars));
    count += w.to - w.from;
  }
  return { m, ask, windows, count, total: count, day: null };
}

/** Several symbols' rows of one day (`symbols` in answer order): each its row of `day` or none (none at all once `offset` skips it). */
export function klineDay(m: MarketData, symbols: readonly number[], day: number, ask: KlineAsk): KlineResult {
  const rowOf = new RowOfDay(m, day);
  const windows = new Array<SymbolWindow>(symbols.length);
  let count = 0;
  for (let n = 0; n < symbols.length; n++) {
    const i = symbols[n];
    const row = ask.window.offset === 0 ? rowOf.of(i) : -1; // limit is at least 1
    const rows = row < 0 ? 0 : 1;
    count += rows;
    windows[n] = { i, from: row + 1 - rows, to: row + 1, total: rows, base: latestRow(m, i), bars: null };
  }
  return { m, ask, windows, count, total: count, day };
}

/**
 * A page of one day's rows of many symbols (the cross-section): `symbols[n]`'s row is `rows[n]`,
 * `total` the day's rows in all; each adjusted as its own K-lines are (qfq to its latest factor).
 */
export function klinePage(
  m: MarketData,
  day: number,
  page: { symbols: Int32Array; rows: Int32Array },
  total: number,
  ask: KlineAsk,
): KlineResult {
  const windows = new Array<SymbolWindow>(page.rows.length);
  for (let n = 0; n < windows.length; n++) {
    const i = page.symbols[n];
    const row = page.rows[n];
    windows[n] = { i, from: row, to: row + 1, total: 1, base: latestRow(m, i), bars: null };
  }
  return { m, ask, windows, count: windows.length, total, day };
}

/** The rows of window `w` of `r` as columns: stored ones as views, adjusted prices computed. */
export function sliceOf(r: KlineResult, w: SymbolWindow): KlineSlice {
  if (w.bars === null) return rowsOf(r.m, w, r.ask.adj, r.ask.fields);
  const { bars, from, to } = w;
  const values: Partial<Record<KlineField, Float64Array>> = {};
  for (const field of r.ask.fields) values[field] = bars[field].subarray(from, to);
  return {
    symbol: w.i,
    count: to - from,
    total: w.total,
    date: bars.date.subarray(from, to),
    adjFactor: bars.adj_factor.subarray(from, to),
    values,
  };
}

/**
 * Rows [from, to) of symbol `i` (market positions) with `fields`, prices adjusted by `adj` (qfq to
 * row `base`): what a window of days is read as (its `total` kept), and any run of a symbol's rows.
 */
export function rowsOf(
  m: MarketData,
  run: Pick<SymbolWindow, 'i' | 'from' | 'to' | 'base'> & { total?: number },
  adj: AdjustMode,
  fields: readonly KlineField[],
): KlineSlice {
  const { i, from, to, base, total = to - from } = run;
  const k = m.klines;
  const values: Partial<Record<KlineField, Float64Array>> = {};
  for (const field of fields)
    values[field] =
      adj !== 'bfq' && PRICE_FIELDS.has(field)
        ? adjustedSlice(k[field], k.adj_factor, from, to, adj, base)
        : k[field].subarray(from, to);
  return {
    symbol: i,
    count: to - from,
    total,
    date: k.date.subarray(from, to),
    adjFactor: k.adj_factor.subarray(from, to),
    values,
  };
}

/** What row `row` of symbol `i` multiplies its prices by under `adj` (qfq to row `base`); rows written one at a time use it with adjustedPrice. */
export const rowScale = (m: MarketData, row: number, adj: AdjustMode, base: number): number =>
  priceScale(m.klines.adj_factor, row, adj, base);

/** An export's date range: every row (or bar) dated within, no offset or limit. */
export interface DateRange {
  start: number | null;
  end: number | null;
}

/** The window of a whole date range. */
export const wholeRange = (range: DateRange): WindowQuery => ({
  start: range.start,
  end: range.end,
  offset: 0,
  limit: Number.MAX_SAFE_INTEGER,
});

/**
 * Rows of symbol `i` dated in `range` (bars of `period` dated in it: one step per bar over its
 * dates, no bar built): what an export of it holds, known before anything is made.
 */
export function rowsInRange(m: MarketData, i: number, range: DateRange, period: Period): number {
  const { date, offsets } = m.klines;
  if (period === 'day') {
    const from = range.start === null ? offsets[i] : lowerBound(date, offsets[i], offsets[i + 1], range.start);
    const to = range.end === null ? offsets[i + 1] : upperBound(date, from, offsets[i + 1], range.end);
    return Math.max(0, to - from);
  }
  let count = 0;
  for (let row = offsets[i]; row < offsets[i + 1]; ) {
    const next = lowerBound(date, row, offsets[i + 1], nextPeriodStart(period, date[row]));
    const barDate = date[next - 1]; // a bar is dated by its last day
    if ((range.start === null || barDate >= range.start) && (range.end === null || barDate <= range.end)) count++;
    row = next;
  }
  return count;
}
