// Row values as every format answers them: null for NaN, and -0 as 0 (the number JSON writes).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { klineRows } from '../../../transport/serialise/rows.js';

test('K-line row values: NaN is null and -0 is 0, as in the JSON text', () => {
  const slice = {
    symbol: 0,
    count: 1,
    total: 1,
    date: Int32Array.of(20161),
    adjFactor: Float64Array.of(1),
    values: { open: Float64Array.of(-0), close: Float64Array.of(NaN) },
  };
  const [row] = klineRows(slice, 'sh600001', ['open', 'close']);
  assert.ok(Object.is(row.open, 0), `open is +0, got ${Object.is(row.open, -0) ? '-0' : row.open}`);
  assert.equal(row.close, null);
  assert.equal(JSON.stringify(row), '{"symbol":"sh600001","date":"2025-03-14","open":0,"close":null,"adj_factor":1}');
});
