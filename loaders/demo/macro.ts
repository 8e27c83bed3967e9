// macro.csv of the demo: quarterly GDP, monthly CPI/PPI and PMI with each indicator's known series keys (MACRO_KEYS).

import { civilFromDays, daysFromCivil, formatDate } from '../../engine/calendar/days.js';
import { MACRO_KEYS, type MacroIndicator } from '../../engine/columns.js';
import { Rng, STREAM, streamSeed } from './prng.js';

/** Header of macro.csv. */
export const MACRO_HEADER = 'indicator,date,key,value\n';

// Yearly levels the monthly AR(1) series revert to: an invented but plausible path.
const CPI_MEAN: Readonly<Record<number, number>> = {
  2016: 2.0,
  2017: 1.6,
  2018: 2.1,
  2019: 2.8,
  2020: 2.4,
  2021: 0.9,
  2022: 2.0,
  2023: 0.3,
  2024: 0.3,
  2025: 0.1,
  2026: 0.5,
};
const PPI_MEAN: Readonly<Record<number, number>> = {
  2016: -1.2,
  2017: 6.0,
  2018: 3.4,
  2019: -0.4,
  2020: -1.8,
  2021: 7.8,
  2022: 4.0,
  2023: -3.0,
  2024: -2.2,
  2025: -2.6,
  2026: -1.2,
};
const mean = (table: Readonly<Record<number, number>>, year: number, fallback: number): number =>
  table[year] ?? fallback;

/** Month ends (day numbers) from the month holding `start` up to `end`, every `step` months on calendar quarters when step is 3. */
function periodEnds(start: number, end: number, step: number): number[] {
  const out: number[] = [];
  let [y, m] = civilFromDays(start);
  m += (step - (m % step)) % step; // first period-closing month at or after start
  for (;;) {
    const last = (m === 12 ? daysFromCivil(y + 1, 1, 1) : daysFromCivil(y, m + 1, 1)) - 1;
    if (last > end) return out;
    if (last >= start) out.push(last);
    m += step;
    if (m > 12) (m -= 12), y++;
  }
}

const one = (x: number): string => x.toFixed(1);

/** All macro rows from `start` to `end` (day numbers), ordered by indicator then date, keys in catalogue order. */
export function macroCsv(seed: number, start: number, end: number): string {
  const rng = new Rng(streamSeed(seed, 99, 0, STREAM.macro));
  const rows: string[] = [MACRO_HEADER];
  const emit = (indicator: MacroIndicator, date: number, values: readonly string[]): void => {
    MACRO_KEYS[indicator].forEach((key, k) => rows.push(`${indicator},${formatDate(date)},${key},${values[k]}\n`));
  };

  // Yearly nominal GDP in 100 million CNY: real growth plus ~2 % inflation, compounded from 2016.
  const annual = (year: number): number => {
    let level = 740000;
    for (let k = 2017; k <= year; k++) level *= 1 + (6.9 - 0.22 * (k - 2016) + 2) / 100;
    return level;
  };
  const share = [0.22, 0.47, 0.72, 1]; // year-to-date share by quarter: GDP_GDP is cumulative like the official releases
  for (const date of periodEnds(start, end, 3)) {
    const [y, m] = civilFromDays(date);
    const q = m / 3 - 1;
    const shock = y === 2020 ? [-12, -4, -2, -0.5][q] : y === 2021 ? [12, 6, 3, 2][q] : 0;
    const yoy = 6.9 - 0.22 * (y - 2016) + shock + rng.normal() * 0.3;
    emit('gdp', date, [
      one(annual(y) * share[q] * (1 + rng.normal() * 0.005)),
      one(yoy),
      one(3.5 + rng.normal() * 0.5 + shock * 0.2),
      one(yoy + shock * 0.3 + rng.normal() * 0.8),
      one(yoy + 0.6 + rng.normal() * 0.4),
    ]);
  }

  let cpi = 2,
    ppi = -1,
    core = 1.2;
  for (const date of periodEnds(start, end, 1)) {
    const [y, m] = civilFromDays(date);
    cpi = mean(CPI_MEAN, y, 1) + 0.8 * (cpi - mean(CPI_MEAN, y, 1)) + rng.normal() * 0.35;
    ppi = mean(PPI_MEAN, y, 0) + 0.85 * (ppi - mean(PPI_MEAN, y, 0)) + rng.normal() * 0.7;
    core = 1.1 + 0.8 * (core - 1.1) + rng.normal() * 0.15;
    const mom = (m <= 2 ? 0.6 : 0) + rng.normal() * 0.3; // the Lunar New Year lifts Jan/Feb prices
    emit('cpi_ppi', date, [one(cpi), one(mom), one(ppi), one(core)]);
  }

  let mfg = 50,
    services = 54;
  for (const date of periodEnds(start, end, 1)) {
    const [y, m] = civilFromDays(date);
    mfg = 50 + 0.6 * (mfg - 50) + rng.normal() * 0.6;
    services = 53.5 + 0.6 * (services - 53.5) + rng.normal() * 0.9;
    const slump = y === 2020 && m === 2; // one invented collapse month, recovering at once
    emit('pmi', date, [one(slump ? 36 + rng.normal() : mfg), one(slump ? 30 + rng.normal() : services)]);
  }
  return rows.join('');
}
