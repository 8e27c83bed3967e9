// GET /{market}/export: every chosen symbol's rows (or period bars) in a date range, counted before
// the first byte and then read one symbol at a time (through the K-line query), so memory stays
// flat whatever the size.

import type { KlineField } from '../columns.js';
import type { MarketData } from '../dataset/dataset.js';
import {
  type AdjustMode,
  type KlineSlice,
  klineQuery,
  type Period,
  rowsInRange,
  sliceOf,
  wholeRange,
} from './klines.js';

export interface ExportQuery {
  /** Positions of the symbols, ascending (the export's order), or every symbol of the market. */
  symbols: Int32Array;
  start: number | null;
  end: number | null;
  period: Period;
  adj: AdjustMode;
  fields: readonly KlineField[];
}

/** The rows (or bars) the export holds: what it charges, known before anything is sent. */
export function exportRows(m: MarketData, q: ExportQuery): number {
  let total = 0;
  for (const i of q.symbols) total += rowsInRange(m, i, q, q.period);
  return total;
}

/** Symbol `i`'s part of the export: its rows in the range, adjusted (qfq to its latest factor), or its bars. */
export function exportSlice(m: MarketData, i: number, q: ExportQuery): KlineSlice {
  const r = klineQuery(m, i, { window: wholeRange(q), adj: q.adj, period: q.period, fields: q.fields });
  return sliceOf(r, r.windows[0]);
}
