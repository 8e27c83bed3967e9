// Record batches written by hand, read back by apache-arrow: after the schema message of the same
// fields, each batch's rows are the columns given (NaN as null, a date32 as its day, the same text
// in every row), whatever the lengths' alignment to 8 bytes; a column shorter than the batch is refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DateDay, Field, Float64, Schema, tableFromIPC, Utf8 } from 'apache-arrow';
import {
  type BatchColumn,
  END_OF_STREAM,
  schemaMessage,
  writeRecordBatch,
} from '../../../transport/serialise/arrow-batch.js';
import { ByteWriter } from '../../../transport/serialise/byte-writer.js';

const schema = new Schema([
  new Field('symbol', new Utf8(), true),
  new Field('date', new DateDay(), true),
  new Field('close', new Float64(), true),
]);
const columnsOf = (symbol: string, days: number[], closes: number[]): BatchColumn[] => [
  { kind: 'repeated-text', text: symbol },
  { kind: 'int32', values: Int32Array.from(days) },
  { kind: 'float64', values: Float64Array.from(closes) },
];

test('batches of 1, 3 and 9 rows with nulls, read back by apache-arrow as one stream', () => {
  const w = new ByteWriter(64);
  w.bytes(schemaMessage(schema));
  const batches = [
    { symbol: 'sh600000', days: [20000], closes: [10.5] },
    { symbol: 'hk00700', days: [20001, 20002, 20005], closes: [Number.NaN, 1.25, -3] },
    {
      symbol: 'usAAPL',
      days: [1, 2, 3, 4, 5, 6, 7, 8, 9],
      closes: [1, Number.NaN, 3, 4, 5, 6, 7, 8, Number.NaN],
    },
  ];
  for (const b of batches) writeRecordBatch(w, columnsOf(b.symbol, b.days, b.closes), b.days.length);
  w.bytes(END_OF_STREAM);
  assert.equal(w.pos % 8, 0, 'every message ends on an 8-byte boundary');
  const table = tableFromIPC(w.buf.subarray(0, w.pos));
  assert.equal(table.batches.length, 3);
  const rows = table.toArray().map((r) => [r.symbol, r.date, r.close]);
  const expected = batches.flatMap((b) =>
    b.days.map((day, i) => [b.symbol, day * 86_400_000, Number.isNaN(b.closes[i]) ? null : b.closes[i]]),
  );
  assert.deepEqual(rows, expected);
});

test('a batch of no rows is a valid batch; a column shorter than its batch is refused', () => {
  const w = new ByteWriter(64);
  w.bytes(schemaMessage(schema));
  writeRecordBatch(w, columnsOf('', [], []), 0);
  w.bytes(END_OF_STREAM);
  assert.equal(tableFromIPC(w.buf.subarray(0, w.pos)).numRows, 0);
  assert.throws(() => writeRecordBatch(new ByteWriter(), columnsOf('x', [1], [1]), 2), RangeError);
});
