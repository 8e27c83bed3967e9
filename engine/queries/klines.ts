// GET /{market}/klines[/{symbol}]: one symbol's window of rows or of period bars, adjusted and projected.

import { type KlineField, PRICE_FIELDS } from '../columns.js';
import type { MarketData } from '../dataset/dataset.js';
import { adjustedSlice, type AdjustMode } from '../kernels/adjust.js';
import { klineWindow, type WindowQuery } from '../kernels/kline-window.js';
import { type Period, periodBars } from '../kernels/periods.js';

/**
 * Rows [from, to) of one symbol, as arrays indexed 0 … count−1. Stored columns are
 * subarray views of the Dataset's shared memory (valid as long as the Dataset is);
 * adjusted prices are fresh arrays owned by the slice.
 */
export interface KlineSlice {
  symbol: number;
  count: number;
  /** Rows in the date range before offset and limit. */
  total: number;
  date: Int32Array;
  adjFactor: Float64Array;
  /** Only the requested fields. */
  values: Partial<Record<KlineField, Float64Array>>;
}

/** `baseRow`: the row whose factor qfq divides by (adjust.ts qfqBaseRow), by default the symbol's latest. */
export function klineSlice(
  m: MarketData,
  symbol: number,
  q: WindowQuery,
  adj: AdjustMode,
  fields: readonly KlineField[],
  baseRow = m.klines.offsets[symbol + 1] - 1,
): KlineSlice {
  const k = m.klines;
  const rowsFrom = k.offsets[symbol];
  const rowsTo = k.offsets[symbol + 1];
  const { from, to, total } = klineWindow(k.date, rowsFrom, rowsTo, q);
  const values: Partial<Record<KlineField, Float64Array>> = {};
  for (const field of fields) {
    values[field] =
      adj !== 'bfq' && PRICE_FIELDS.has(field)
        ? adjustedSlice(k[field], k.adj_factor, from, to, adj, baseRow)
        : k[field].subarray(from, to);
  }
  return {
    symbol,
    count: to - from,
    total,
    date: k.date.subarray(from, to),
    adjFactor: k.adj_factor.subarray(from, to),
    values,
  };
}

/**
 * Bars of `period` of one symbol as a slice: built from all its rows (a window never cuts a
 * bar), then windowed by the bars' dates as klineWindow windows days; `total` counts bars.
 */
export function periodSlice(
  m: MarketData,
  symbol: number,
  q: WindowQuery,
  period: Exclude<Period, 'day'>,
  adj: AdjustMode,
  fields: readonly KlineField[],
  baseRow = m.klines.offsets[symbol + 1] - 1,
): KlineSlice {
  const k = m.klines;
  const bars = periodBars(k, k.offsets[symbol], k.offsets[symbol + 1], period, adj, baseRow);
  const { from, to, total } = klineWindow(bars.date, 0, bars.count, q);
  const values: Partial<Record<KlineField, Float64Array>> = {};
  for (const field of fields) values[field] = bars[field].subarray(from, to);
  return {
    symbol,
    count: to - from,
    total,
    date: bars.date.subarray(from, to),
    adjFactor: bars.adj_factor.subarray(from, to),
    values,
  };
}
