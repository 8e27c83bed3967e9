// Record batches written by hand, read back by apache-arrow: after the schema message of the same
// fields, each batch's rows are the columns given (NaN as null, a date32 as its day, the same text
// in every row), whatever the lengths' alignment to 8 bytes; a column shorter than the batch is refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DataType, tableFromIPC } from 'apache-arrow';
import {
  type BatchColumn,
  END_OF_STREAM,
  schemaField as field,
  writeDictionaryBatch,
  writeRecordBatch,
  writeSchema,
} from '../../../transport/serialise/arrow-batch.js';
import { ByteWriter } from '../../../transport/serialise/byte-writer.js';

const fields = [field('symbol', 'utf8'), field('date', 'date32'), field('close', 'float64')];
const columnsOf = (symbol: string, days: number[], closes: number[]): BatchColumn[] => [
  { kind: 'repeated-text', text: symbol },
  { kind: 'int32', values: Int32Array.from(days) },
  { kind: 'float64', values: Float64Array.from(closes) },
];

test('batches of 1, 3 and 9 rows with nulls, read back by apache-arrow as one stream', () => {
  const w = new ByteWriter(64);
  writeSchema(w, fields, new Map());
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
  writeSchema(w, fields, new Map());
  writeRecordBatch(w, columnsOf('', [], []), 0);
  w.bytes(END_OF_STREAM);
  assert.equal(tableFromIPC(w.buf.subarray(0, w.pos)).numRows, 0);
  assert.throws(() => writeRecordBatch(new ByteWriter(), columnsOf('x', [1], [1]), 2), RangeError);
});

test('a schema with metadata, text with nulls, dictionary text and dates with nulls, read back by apache-arrow', () => {
  const w = new ByteWriter(64);
  const metadata = new Map([
    ['market', 'hkstock'],
    ['total', '3'],
  ]);
  writeSchema(
    w,
    [field('name', 'utf8'), field('board', 'utf8', 1), field('date', 'date32'), field('pe', 'float64')],
    metadata,
  );
  writeDictionaryBatch(w, 1, ['主板', 'GEM']);
  const valid = Uint8Array.of(0b101); // rows 0 and 2
  writeRecordBatch(
    w,
    [
      { kind: 'utf8', texts: ['騰訊控股', null, 'ab'] },
      { kind: 'int32', values: Int32Array.of(0, 0, 1), valid: Uint8Array.of(0b011) },
      { kind: 'int32', values: Int32Array.of(19000, 0, 19002), valid },
      { kind: 'float64', values: Float64Array.of(1.5, Number.NaN, -2) },
    ],
    3,
  );
  w.bytes(END_OF_STREAM);
  assert.equal(w.pos % 8, 0);
  const table = tableFromIPC(w.buf.subarray(0, w.pos));
  assert.deepEqual([...table.schema.metadata], [...metadata]);
  assert.ok(DataType.isDictionary(table.schema.fields[1].type), 'board is dictionary-encoded');
  assert.ok(DataType.isDate(table.schema.fields[2].type));
  assert.deepEqual(
    table.toArray().map((r) => [r.name, r.board, r.date, r.pe]),
    [
      ['騰訊控股', '主板', 19000 * 86_400_000, 1.5],
      [null, '主板', null, null],
      ['ab', null, 19002 * 86_400_000, -2],
    ],
  );
});
