// GET /macro/indicators: what the macro rows hold per indicator: its series keys with their units, its dates and their frequency.

import { civilFromDays } from '../calendar/days.js';
import { MACRO_INDICATORS, MACRO_KEYS, MACRO_UNITS } from '../columns.js';
import type { MacroRow } from '../dataset/macro-series.js';

/** How often an indicator is released, read from its dates (`macroFrequency`). */
export type MacroFrequency = 'monthly' | 'quarterly' | 'irregular';

export interface MacroIndicatorInfo {
  indicator: string;
  frequency: MacroFrequency;
  /** First and last release (days since epoch). */
  start: number;
  end: number;
  /** Series keys: the documented ones in their order (GDP, CPI & PPI, PMI keys), then any others ascending; each one's unit, or null. */
  keys: { key: string; unit: string | null }[];
}

/**
 * `monthly` when every two consecutive releases are one calendar month apart (2025-01-31 →
 * 2025-02-28), `quarterly` when every two are three months apart, `irregular` otherwise,
 * and with fewer than two releases (no interval to read). Dates ascending.
 */
export function macroFrequency(dates: readonly number[]): MacroFrequency {
  let gap = 0;
  for (let i = 1; i < dates.length; i++) {
    const [y0, m0] = civilFromDays(dates[i - 1]);
    const [y1, m1] = civilFromDays(dates[i]);
    const months = (y1 - y0) * 12 + (m1 - m0);
    if (i === 1) gap = months;
    else if (months !== gap) return 'irregular';
  }
  return gap === 1 ? 'monthly' : gap === 3 ? 'quarterly' : 'irregular';
}

const known = (indicator: string): readonly string[] =>
  (MACRO_KEYS as Readonly<Record<string, readonly string[]>>)[indicator] ?? [];
const rank = (indicator: string): number => {
  const i = (MACRO_INDICATORS as readonly string[]).indexOf(indicator);
  return i < 0 ? MACRO_INDICATORS.length : i;
};
/** A key's unit; `Object.hasOwn`: a key named `constructor` has none. */
const unitOf = (key: string): string | null => (Object.hasOwn(MACRO_UNITS, key) ? MACRO_UNITS[key] : null);
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Every indicator the rows hold, in listing order (gdp, cpi_ppi, pmi, then any other by name). */
export function macroIndicators(rows: readonly MacroRow[]): MacroIndicatorInfo[] {
  const groups = new Map<string, { dates: Set<number>; keys: Set<string> }>();
  for (const row of rows) {
    let g = groups.get(row.indicator);
    if (g === undefined) groups.set(row.indicator, (g = { dates: new Set(), keys: new Set() }));
    g.dates.add(row.date);
    for (const key in row.data) g.keys.add(key);
  }
  return [...groups]
    .sort(([a], [b]) => rank(a) - rank(b) || byText(a, b))
    .map(([indicator, g]) => {
      const dates = [...g.dates].sort((a, b) => a - b);
      const listed = known(indicator).filter((key) => g.keys.has(key));
      const others = [...g.keys].filter((key) => !listed.includes(key)).sort(byText);
      return {
        indicator,
        frequency: macroFrequency(dates),
        start: dates[0],
        end: dates[dates.length - 1],
        keys: [...listed, ...others].map((key) => ({ key, unit: unitOf(key) })),
      };
    });
}
