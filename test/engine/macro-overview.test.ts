// macroOverview: distinct series keys over every indicator and date, and the indicators with rows.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MacroRow } from '../../engine/dataset/macro-series.js';
import { macroOverview } from '../../engine/queries/macro-overview.js';

test('a key at several dates is one series; keys of every indicator are counted', () => {
  const rows: MacroRow[] = [
    { indicator: 'gdp', date: 1, data: { GDP_GDP: 1, GDP_GDP_YOY: 2 } },
    { indicator: 'gdp', date: 2, data: { GDP_GDP: 3, GDP_GDP_YOY: null } },
    { indicator: 'pmi', date: 2, data: { PMI_MANUFACTURING: 50 } },
  ];
  assert.deepEqual(macroOverview(rows), { series: 3, indicators: 2 });
});

test('no macro rows: no series', () => {
  assert.deepEqual(macroOverview([]), { series: 0, indicators: 0 });
});
