// The dashboard's macro figures: how many series (distinct keys) and indicators the Dataset's macro rows hold.

import type { MacroRow } from '../dataset/macro-series.js';

export interface MacroOverview {
  /** Distinct series keys over every indicator (a key is one column of the all-indicator CSV). */
  series: number;
  /** Indicators with at least one row. */
  indicators: number;
}

/** Counts over every row: a key seen at any date of any indicator is one series. */
export function macroOverview(rows: readonly MacroRow[]): MacroOverview {
  const keys = new Set<string>();
  const indicators = new Set<string>();
  for (const row of rows) {
    indicators.add(row.indicator);
    for (const key in row.data) keys.add(key);
  }
  return { series: keys.size, indicators: indicators.size };
}
