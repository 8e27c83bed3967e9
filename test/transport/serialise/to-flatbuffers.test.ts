// FlatBuffers responses: every sample value comes back unchanged through flatc's own readers of mdq.fbs.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SNAPSHOT_COLUMNS } from '../../../engine/columns.js';
import { SCHEMAS } from '../../../transport/schemas/responses.js';
import {
  FLATBUFFER_SHAPES,
  FLATBUFFERS_SCHEMA_PATH,
  type FlatShapeName,
  flatbuffersOf,
  flatbuffersView,
} from '../../../transport/answers/formats/flatbuffers.js';
import { decodeFlatbuffers, flatbuffersRoot, needsFlatc } from '../../helpers/flatc.js';
import { closeOnly, SAMPLES } from '../../helpers/shape-samples.js';

/** Values only the binary format finds awkward: uint64 at 2^53-1, optional zeros, a partial column set. */
const EXTRA: Partial<Record<FlatShapeName, unknown[]>> = {
  klines: [
    {
      market: 'ashare',
      symbol: 'sh600001',
      count: 1,
      total: 1,
      offset: 9007199254740991,
      limit: 1,
      fields: ['symbol', 'date', 'close', 'adj_factor'],
      data: [closeOnly],
    },
  ],
  quota: [
    {
      plan: 'suspended',
      org_name: 'x',
      daily_quota: 0,
      used: 0,
      remaining: 0,
      requests_today: 0,
      reset_at: '2025-03-16T00:00:00Z',
      export_quota: 0,
      export_used: 0,
      export_remaining: 0,
    },
  ],
  screen: [
    {
      market: 'hkstock',
      total: 1,
      count: 1,
      limit: 1,
      offset: 0,
      sort: 'volume',
      order: 'asc',
      data: [{ symbol: 'hk00700', date: '2025-03-14', name: '', volume: 0, wb_ratio: -0 }],
    },
  ],
};

const samplesOf = (shape: FlatShapeName): unknown[] => [...SAMPLES[shape], ...(EXTRA[shape] ?? [])];

/** The value with every -0 replaced by 0 (the format may write -0 as 0). */
const zeroed = (v: unknown): unknown =>
  Object.is(v, -0)
    ? 0
    : Array.isArray(v)
      ? v.map(zeroed)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, zeroed(x)]))
        : v;

/** A K-line response of `n` rows with every field selected. */
function klineValue(n: number): unknown {
  const data = Array.from({ length: n }, (_, i) => ({
    symbol: 'sh600001',
    date: `2024-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
    open: i + 0.5,
    high: i + 1,
    low: i,
    close: i % 10 === 0 ? null : i + 0.25,
    volume: i * 100,
    amount: i * 1e6,
    adj_factor: 1,
  }));
  return {
    market: 'ashare',
    symbol: 'sh600001',
    count: n,
    total: n,
    offset: 0,
    limit: n,
    fields: ['symbol', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount', 'adj_factor'],
    data,
  };
}

test('FlatBuffers covers every response shape but problem and health', () => {
  const expected = Object.keys(SCHEMAS).filter((s) => s !== 'problem' && s !== 'health');
  assert.deepEqual([...FLATBUFFER_SHAPES].sort(), expected.sort());
});

test('FLATBUFFERS_SCHEMA_PATH is the mdq.fbs file under transport/schemas', () => {
  assert.match(FLATBUFFERS_SCHEMA_PATH, /[/\\]transport[/\\]schemas[/\\]mdq\.fbs$/);
  assert.ok(existsSync(FLATBUFFERS_SCHEMA_PATH), `${FLATBUFFERS_SCHEMA_PATH} exists`);
});

test('the Snapshot table of mdq.fbs lists every snapshot column in table order: strings as string, numbers as double = null', () => {
  const body = /table Snapshot \{([^}]*)\}/.exec(readFileSync(FLATBUFFERS_SCHEMA_PATH, 'utf8'))?.[1];
  assert.ok(body, 'mdq.fbs declares table Snapshot');
  const declared = [...body.matchAll(/^\s*(\w+)\s*:\s*([^;]+);/gm)].map((m) => `${m[1]}: ${m[2].trim()}`);
  assert.deepEqual(
    declared,
    SNAPSHOT_COLUMNS.map((c) => `${c.name}: ${c.kind === 'string' ? 'string' : 'double = null'}`),
  );
});

for (const shape of FLATBUFFER_SHAPES) {
  test(`every ${shape} sample reads back through flatc's generated readers as the same value (-0 as 0)`, async (t) => {
    if (!needsFlatc(t)) return;
    for (const [i, value] of samplesOf(shape).entries()) {
      assert.deepEqual(
        zeroed(await decodeFlatbuffers(shape, flatbuffersOf(shape, value))),
        zeroed(value),
        `${shape}[${i}]`,
      );
    }
  });
}

test('decoded values keep the key order of batch maps, macro series and rows (same JSON text)', async (t) => {
  if (!needsFlatc(t)) return;
  for (const shape of FLATBUFFER_SHAPES) {
    for (const [i, value] of samplesOf(shape).entries()) {
      assert.equal(
        JSON.stringify(await decodeFlatbuffers(shape, flatbuffersOf(shape, value))),
        JSON.stringify(value),
        `${shape}[${i}]`,
      );
    }
  }
});

test('a 100-row K-line column reads as a Float64Array view on the buffer itself, not a copy', async (t) => {
  if (!needsFlatc(t)) return;
  const bytes = flatbuffersOf('klines', klineValue(100));
  const open = (await flatbuffersRoot('klines', bytes)).columns().openArray();
  assert.ok(open instanceof Float64Array, 'openArray() is a Float64Array');
  assert.equal(open.length, 100);
  assert.equal(open.buffer, bytes.buffer, 'the array shares the bytes of the response');
  assert.equal(open[99], 99.5);
});

test('a K-line field that was not selected has no vector; a selected one has a vector even with no rows', async (t) => {
  if (!needsFlatc(t)) return;
  const columns = (await flatbuffersRoot('klines', flatbuffersOf('klines', SAMPLES.klines[1]))).columns();
  assert.equal(columns.openArray(), null, 'open not selected: absent');
  assert.deepEqual([...columns.closeArray()], [6.18], 'close selected');
  const empty = (await flatbuffersRoot('klines', flatbuffersOf('klines', SAMPLES.klines[2]))).columns();
  assert.equal(empty.dateArray().length, 0, 'date present, empty');
  assert.equal(empty.closeArray(), null, 'close not selected: absent');
});

test('each call returns its own bytes: a later call leaves an earlier result unchanged', () => {
  const first = flatbuffersOf('quota', SAMPLES.quota[0]);
  const copy = Uint8Array.from(first);
  flatbuffersOf('klines', klineValue(100));
  assert.deepEqual(first, copy);
});

test('flatbuffersView gives the same bytes as a view of the reused builder: no copy per answer', () => {
  const owned = flatbuffersOf('klines', klineValue(100));
  const view = flatbuffersView('klines', klineValue(100));
  assert.deepEqual(view, owned);
  const again = flatbuffersView('quota', SAMPLES.quota[0]);
  assert.strictEqual(again.buffer, view.buffer, 'the next call writes into the same memory');
});

test('a shape without a FlatBuffers table (problem, health) throws an Error', () => {
  for (const shape of ['problem', 'health', 'toString']) {
    assert.throws(
      () => flatbuffersOf(shape as FlatShapeName, SAMPLES.health[0]),
      (e: unknown) => e instanceof Error && e.message.includes(shape),
      shape,
    );
  }
});

test('a count beyond uint32 throws a RangeError rather than wrapping', () => {
  assert.throws(() => flatbuffersOf('markets', { count: 2 ** 32, data: [] }), RangeError);
});
