// macroIndicators and macroFrequency: indicators in listing order, keys with their documented units, first and last dates, the frequency rule.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MacroRow } from '../../engine/dataset/macro-series.js';
import { macroFrequency, macroIndicators } from '../../engine/queries/macro-indicators.js';
import { dayOf } from '../helpers/fixture-model.js';

const days = (...iso: string[]): number[] => iso.map(dayOf);

test('releases one calendar month apart are monthly, whatever the month lengths and across a year end', () => {
  assert.equal(macroFrequency(days('2024-11-30', '2024-12-31', '2025-01-31', '2025-02-28', '2025-03-31')), 'monthly');
});

test('releases three months apart are quarterly', () => {
  assert.equal(macroFrequency(days('2024-03-31', '2024-06-30', '2024-09-30', '2024-12-31', '2025-03-31')), 'quarterly');
});

test('a missed month, mixed gaps, other regular gaps and a single release are irregular', () => {
  assert.equal(macroFrequency(days('2025-01-31', '2025-02-28', '2025-04-30')), 'irregular', 'a month missing');
  assert.equal(macroFrequency(days('2024-03-31', '2024-06-30', '2024-07-31')), 'irregular', '3 then 1');
  assert.equal(macroFrequency(days('2023-12-31', '2024-12-31')), 'irregular', 'yearly is not one of the two');
  assert.equal(macroFrequency(days('2025-01-15', '2025-01-31')), 'irregular', 'twice in one month');
  assert.equal(macroFrequency(days('2025-02-28')), 'irregular', 'one release: no interval');
  assert.equal(macroFrequency([]), 'irregular');
});

test('indicators in listing order (gdp before cpi_ppi, whatever the row order), documented keys in their order then others ascending, with their units or null, first and last dates', () => {
  const rows: MacroRow[] = [
    { indicator: 'cpi_ppi', date: dayOf('2025-01-31'), data: { PPI_PPI_YOY: -2.3, CPI_CPI_YOY: 0.5, A_KEY: 1 } },
    { indicator: 'cpi_ppi', date: dayOf('2025-02-28'), data: { constructor: 1 } },
    { indicator: 'gdp', date: dayOf('2024-09-30'), data: { GDP_GDP_YOY: 4.6, GDP_GDP: 1, GDP_EXTRA: null } },
    { indicator: 'gdp', date: dayOf('2024-12-31'), data: { GDP_TERTIARY_YOY: 5, GDP_GDP: 2 } },
  ];
  assert.deepEqual(macroIndicators(rows), [
    {
      indicator: 'gdp',
      frequency: 'quarterly',
      start: dayOf('2024-09-30'),
      end: dayOf('2024-12-31'),
      keys: [
        { key: 'GDP_GDP', unit: '100 million CNY' },
        { key: 'GDP_GDP_YOY', unit: '%' },
        { key: 'GDP_TERTIARY_YOY', unit: '%' },
        { key: 'GDP_EXTRA', unit: null },
      ],
    },
    {
      indicator: 'cpi_ppi',
      frequency: 'monthly',
      start: dayOf('2025-01-31'),
      end: dayOf('2025-02-28'),
      keys: [
        { key: 'CPI_CPI_YOY', unit: null },
        { key: 'PPI_PPI_YOY', unit: null },
        { key: 'A_KEY', unit: null },
        { key: 'constructor', unit: null },
      ],
    },
  ]);
});

test('no rows, no indicators', () => {
  assert.deepEqual(macroIndicators([]), []);
});
