// Period bars: ISO weeks and calendar periods, decimal sums, and bars built after adjustment,
// against values worked out by hand.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseIsoDate } from '../../engine/calendar/days.js';
import type { KlineColumns } from '../../engine/dataset/kline-columns.js';
import { decimalSum, nextPeriodStart, periodBars } from '../../engine/kernels/periods.js';

const day = parseIsoDate;

/** The first day of the next period after `text`'s, as text. */
const next = (period: 'week' | 'month' | 'quarter' | 'year', text: string): number =>
  nextPeriodStart(period, day(text));

test('ISO weeks run Monday to Sunday, across a year end and before the epoch', () => {
  assert.equal(next('week', '2025-03-09'), day('2025-03-10'), 'Sunday ends a week');
  assert.equal(next('week', '2025-03-10'), day('2025-03-17'), 'Monday starts one');
  assert.equal(next('week', '2025-03-16'), day('2025-03-17'));
  assert.equal(next('week', '2024-12-30'), day('2025-01-06'), 'ISO week 1 of 2025 starts in 2024');
  assert.equal(next('week', '1970-01-01'), day('1970-01-05'));
  assert.equal(next('week', '1969-12-29'), day('1970-01-05'));
});

test('months, quarters and years are calendar periods', () => {
  assert.equal(next('month', '2025-01-31'), day('2025-02-01'));
  assert.equal(next('month', '2024-02-01'), day('2024-03-01'));
  assert.equal(next('month', '2024-12-15'), day('2025-01-01'));
  assert.equal(next('quarter', '2025-01-01'), day('2025-04-01'));
  assert.equal(next('quarter', '2025-03-31'), day('2025-04-01'));
  assert.equal(next('quarter', '2025-11-15'), day('2026-01-01'));
  assert.equal(next('year', '2024-12-31'), day('2025-01-01'));
  assert.equal(next('year', '2025-01-01'), day('2026-01-01'));
});

test('decimal sums read as the decimal texts add up; null cells are skipped, all null is null', () => {
  const of = (...xs: number[]) => new Float64Array(xs);
  assert.equal(decimalSum(of(0.1, 0.2), 0, 2), 0.3);
  assert.equal(decimalSum(of(25995480.5, 28951191.5, 0.01), 0, 3), 54946672.01);
  assert.equal(decimalSum(of(0.12345678, 0.00000001), 0, 2), 0.12345679);
  assert.equal(decimalSum(of(NaN, 1.5, NaN), 0, 3), 1.5);
  assert.ok(Number.isNaN(decimalSum(of(NaN, NaN), 0, 2)));
  assert.ok(Number.isNaN(decimalSum(of(), 0, 0)));
  assert.equal(decimalSum(of(5, 7, 9), 1, 3), 16, 'only [from, to)');
  assert.equal(decimalSum(of(1e20, 1e20), 0, 2), 2e20, 'past 2^53 units: a compensated sum');
});

/** Five days over two ISO weeks and two months; a 2-for-1 split on 2025-03-03 (factor 1 → 2). */
function columns(): KlineColumns {
  const dates = ['2025-02-26', '2025-02-27', '2025-02-28', '2025-03-03', '2025-03-04'];
  return {
    offsets: new Int32Array([0, 5]),
    date: Int32Array.from(dates, day),
    open: new Float64Array([10, 10.5, 11, 5.6, 5.8]),
    high: new Float64Array([10.6, NaN, 11.2, 5.9, 6]),
    low: new Float64Array([9.9, 10.4, 10.9, 5.5, 5.7]),
    close: new Float64Array([10.5, 11, 11.1, 5.8, 5.9]),
    volume: new Float64Array([100, NaN, 300, 700, 900]),
    amount: new Float64Array([1000.1, 2000.2, 3000.3, NaN, NaN]),
    adj_factor: new Float64Array([1, 1, 1, 2, 2]),
  } as KlineColumns;
}

test('weekly bars: open first, high max and low min skipping nulls, close last, sums, last day and its factor', () => {
  const bars = periodBars(columns(), 0, 5, 'week', 'bfq', 4);
  assert.equal(bars.count, 2);
  assert.deepEqual(Array.from(bars.date), [day('2025-02-28'), day('2025-03-04')]);
  assert.deepEqual(Array.from(bars.open), [10, 5.6]);
  assert.deepEqual(Array.from(bars.high), [11.2, 6]);
  assert.deepEqual(Array.from(bars.low), [9.9, 5.5]);
  assert.deepEqual(Array.from(bars.close), [11.1, 5.9]);
  assert.deepEqual(Array.from(bars.volume), [400, 1600]);
  assert.equal(bars.amount[0], 6000.6);
  assert.ok(Number.isNaN(bars.amount[1]), 'every amount null: null');
  assert.deepEqual(Array.from(bars.adj_factor), [1, 2]);
});

test('a split inside a period: qfq and hfq bars are built from the adjusted days', () => {
  // qfq to the latest factor (2): the February days halve; hfq doubles the March days.
  const qfq = periodBars(columns(), 0, 5, 'quarter', 'qfq', 4);
  assert.equal(qfq.count, 1);
  assert.deepEqual([qfq.open[0], qfq.high[0], qfq.low[0], qfq.close[0]], [5, 6, 4.95, 5.9]);
  const hfq = periodBars(columns(), 0, 5, 'quarter', 'hfq', 4);
  assert.deepEqual([hfq.open[0], hfq.high[0], hfq.low[0], hfq.close[0]], [10, 12, 9.9, 11.8]);
  assert.equal(hfq.volume[0], 2000, 'sizes are never adjusted');
  assert.equal(hfq.adj_factor[0], 2);
});
