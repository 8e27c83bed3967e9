// GET /macro: rows of one indicator or all, within inclusive years, paged.

import { civilFromDays } from '../calendar/days.js';
import type { MacroIndicator } from '../columns.js';
import type { MacroRow } from '../dataset/macro-series.js';

export interface MacroQuery {
  indicator: MacroIndicator | null;
  startYear: number | null;
  endYear: number | null;
  offset: number;
  limit: number;
}

/** Matching rows in stored order (indicator, then date), and how many matched before paging. */
export function queryMacro(rows: readonly MacroRow[], q: MacroQuery): { total: number; rows: MacroRow[] } {
  const matched = rows.filter((row) => {
    if (q.indicator !== null && row.indicator !== q.indicator) return false;
    const [year] = civilFromDays(row.date);
    return (q.startYear === null || year >= q.startYear) && (q.endYear === null || year <= q.endYear);
  });
  return { total: matched.length, rows: matched.slice(q.offset, q.offset + q.limit) };
}
