// Trading-day calendars of the demo: weekdays less a small fixed holiday list per market family.

import { daysFromCivil, weekday } from '../../engine/calendar/days.js';

/** Which exchange calendar a market (or an index) follows. */
export type CalendarFamily = 'cn' | 'hk' | 'us' | 'crypto';

/** The last day of demo history: fixed, so the output never depends on the wall clock. */
export const DEMO_END = { year: 2026, month: 10, day: 30 } as const;

// Lunar New Year's day (Gregorian); the CN markets close from its eve for a week.
const LUNAR_NEW_YEAR: Readonly<Record<number, [number, number]>> = {
  2010: [2, 14],
  2011: [2, 3],
  2012: [1, 23],
  2013: [2, 10],
  2014: [1, 31],
  2015: [2, 19],
  2016: [2, 8],
  2017: [1, 28],
  2018: [2, 16],
  2019: [2, 5],
  2020: [1, 25],
  2021: [2, 12],
  2022: [2, 1],
  2023: [1, 22],
  2024: [2, 10],
  2025: [1, 29],
  2026: [2, 17],
};

/** Easter Sunday (anonymous Gregorian algorithm) as a day number. */
function easter(year: number): number {
  const a = year % 19,
    b = Math.floor(year / 100),
    c = year % 100;
  const d = Math.floor(b / 4),
    e = b % 4,
    f = Math.floor((b + 8) / 25),
    g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30,
    i = Math.floor(c / 4),
    k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7,
    m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return daysFromCivil(year, month, ((h + l - 7 * m + 114) % 31) + 1);
}

/** The n-th (1-based) given weekday of a month; n = -1 for the last one. */
function nthWeekday(year: number, month: number, wd: number, n: number): number {
  if (n > 0) {
    const first = daysFromCivil(year, month, 1);
    return first + ((wd - weekday(first) + 7) % 7) + 7 * (n - 1);
  }
  const last = month === 12 ? daysFromCivil(year, 12, 31) : daysFromCivil(year, month + 1, 1) - 1;
  return last - ((weekday(last) - wd + 7) % 7);
}

/** Holidays of one family in one year, as day numbers (weekends among them are harmless). */
function holidays(family: CalendarFamily, year: number): number[] {
  const on = (m: number, d: number): number => daysFromCivil(year, m, d);
  const lunar = LUNAR_NEW_YEAR[year];
  const lny = lunar ? on(lunar[0], lunar[1]) : NaN;
  const span = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);
  switch (family) {
    case 'cn':
      return [on(1, 1), ...(lunar ? span(lny - 1, 7) : []), ...span(on(10, 1), 7)];
    case 'hk': {
      const e = easter(year);
      return [
        on(1, 1),
        ...(lunar ? span(lny, 3) : []),
        e - 2,
        e + 1,
        on(5, 1),
        on(7, 1),
        on(10, 1),
        on(12, 25),
        on(12, 26),
      ];
    }
    case 'us':
      return [
        on(1, 1),
        easter(year) - 2,
        nthWeekday(year, 5, 1, -1),
        on(7, 4),
        nthWeekday(year, 9, 1, 1),
        nthWeekday(year, 11, 4, 4),
        on(12, 25),
      ];
    case 'crypto':
      return [];
  }
}

/** First day of a history of `years` (fractions allowed) ending at DEMO_END. */
export function historyStart(years: number): number {
  if (!(years > 0)) throw new RangeError(`years must be positive, got ${years}`);
  const whole = Math.floor(years);
  const startOfWhole = daysFromCivil(DEMO_END.year - whole, DEMO_END.month, DEMO_END.day) + 1;
  return startOfWhole - Math.round((years - whole) * 365.25);
}

/** Trading days (ascending day numbers) of a family from `start` to DEMO_END inclusive. */
export function tradingDays(family: CalendarFamily, start: number): Int32Array {
  const end = daysFromCivil(DEMO_END.year, DEMO_END.month, DEMO_END.day);
  const closed = new Set<number>();
  const firstYear = DEMO_END.year - Math.ceil((end - start) / 365) - 1;
  for (let y = firstYear; y <= DEMO_END.year; y++) for (const d of holidays(family, y)) closed.add(d);
  const out: number[] = [];
  for (let d = start; d <= end; d++) {
    if (family !== 'crypto') {
      const wd = weekday(d);
      if (wd === 0 || wd === 6 || closed.has(d)) continue;
    }
    out.push(d);
  }
  return Int32Array.from(out);
}
