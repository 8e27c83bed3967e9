// Adjusted prices never leave the finite numbers: the load-time bound and the answer-time guard.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adjustedSlice, adjustmentOutOfBounds, MAX_ADJUSTED_PRICE } from '../../engine/kernels/adjust.js';
import { round4 } from '../../engine/kernels/round.js';

const column = (...values: number[]): Float64Array => Float64Array.from(values);

test('round4 turns ±Infinity into NaN (null) and leaves large finite values as stored', () => {
  assert.ok(Number.isNaN(round4(Infinity)));
  assert.ok(Number.isNaN(round4(-Infinity)));
  assert.ok(Number.isNaN(round4(NaN)));
  assert.equal(round4(1e300), 1e300);
  assert.equal(round4(-1e12), -1e12);
  assert.equal(round4(12.34565), 12.3457);
});

test('an adjustment that overflows answers null, never Infinity (a snapshot stored before the load bound)', () => {
  const hfq = adjustedSlice(column(1e308, 10), column(2, 1), 0, 2, 'hfq', 1);
  assert.ok(Number.isNaN(hfq[0]), `1e308 × 2 answers null, got ${hfq[0]}`);
  assert.equal(hfq[1], 10);
  const qfq = adjustedSlice(column(1e308, 10), column(4, 1e-300), 0, 2, 'qfq', 1);
  assert.ok(Number.isNaN(qfq[0]), `1e308 × 4 / 1e-300 answers null, got ${qfq[0]}`);
});

test('adjustmentOutOfBounds names the mode that leaves ±MAX_ADJUSTED_PRICE, as adjustPrices computes it', () => {
  assert.equal(MAX_ADJUSTED_PRICE, 1e15);
  assert.equal(adjustmentOutOfBounds(1e308, 2, 2), 'hfq');
  assert.equal(adjustmentOutOfBounds(-6e14, 2, 2), 'hfq');
  assert.equal(adjustmentOutOfBounds(1e10, 1, 1e-6), 'qfq');
  assert.equal(adjustmentOutOfBounds(5e14, 2, 2), null, 'exactly at the bound');
  assert.equal(adjustmentOutOfBounds(NaN, 2, 2), null, 'null prices stay null');
  assert.equal(adjustmentOutOfBounds(10, 1e300, 1e-300), 'hfq');
});
