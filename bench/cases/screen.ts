// The screen of the bench (ashare, three bounds, sorted, limit 50): walk of a precomputed order against filter + sort.

import type { Dataset } from '../../engine/dataset/dataset.js';
import { screen, screenBySorting, type ScreenResult } from '../../engine/queries/screen.js';
import { type MicroCase, thousands } from './case.js';
import { SCREEN_QUERY } from './inputs.js';

/** A screen's answer in comparable form. */
export const screenAnswer = (out: unknown): { total: number; rows: number[] } => {
  const r = out as ScreenResult;
  return { total: r.total, rows: Array.from(r.rows) };
};

export function screenCases(dataset: Dataset): MicroCase[] {
  const table = dataset.markets.ashare.snapshots;
  const { total } = screen(table, SCREEN_QUERY);
  return [
    {
      group: 'screen',
      name: `ashare ${thousands(table.size)} rows, 3 bounds, sorted, limit 50`,
      detail: `${thousands(total)} rows match`,
      variants: [
        { name: 'ranges of precomputed orders', run: () => screen(table, SCREEN_QUERY) },
        { name: 'filter + sort survivors', run: () => screenBySorting(table, SCREEN_QUERY) },
      ],
      baseline: 'filter + sort survivors',
      answer: screenAnswer,
    },
  ];
}
