// Macro series rows grouped as the API answers them: one row per (indicator, date).

import type { MacroIndicator } from '../columns.js';

export interface MacroRow {
  indicator: MacroIndicator;
  /** Period-end day (days since epoch). */
  date: number;
  /** Series key → value (null when the snapshot left it empty), keys ascending. */
  data: Record<string, number | null>;
}

export interface MacroPointInput {
  indicator: MacroIndicator;
  date: number;
  key: string;
  value: number | null;
}

/** Groups points sorted by (indicator order, date, key) into rows in the same order. */
export function groupMacro(points: readonly MacroPointInput[]): MacroRow[] {
  const rows: MacroRow[] = [];
  let last: MacroRow | null = null;
  for (const p of points) {
    if (last === null || last.indicator !== p.indicator || last.date !== p.date) {
      last = { indicator: p.indicator, date: p.date, data: {} };
      rows.push(last);
    }
    last.data[p.key] = p.value === null ? null : p.value + 0; // -0 is 0, as every answer writes it
  }
  return rows;
}
