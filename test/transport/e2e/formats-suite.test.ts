// One case suite, every response shape in every format and encoding: msgpack unpacks to the
// JSON value, CSV (read by csv-parse) holds the JSON rows, flatbuffers read through flatc's
// generated code equal the JSON value, gzip and br inflate to the identity bytes — first
// asks and cached answers alike.

import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parse as parseCsv } from 'csv-parse/sync';
import { DataType, type Table, tableFromIPC } from 'apache-arrow';
import { unpack } from 'msgpackr';
import type { FlatShapeName } from '../../../transport/answers/formats/flatbuffers.js';
import type { TestServer } from '../../helpers/api-server.js';
import { assertJsonExact, startAnswerServer } from '../../helpers/e2e.js';
import { decodeFlatbuffers, needsFlatc } from '../../helpers/flatc.js';

let server: TestServer;
before(async () => (server = await startAnswerServer()));
after(() => server.close());

/** Every shape, with the awkward values the fixture has: nulls, Unicode names, `missing`, empty markets. */
const CASES: { shape: FlatShapeName; path: string }[] = [
  { shape: 'markets', path: '/api/v1/markets' },
  { shape: 'symbols', path: '/api/v1/ashare/symbols?limit=9' },
  { shape: 'symbols', path: '/api/v1/crypto/symbols' },
  { shape: 'klines', path: '/api/v1/ashare/klines/sh600001?limit=40&adj=qfq' },
  { shape: 'klines', path: '/api/v1/ashare/klines/sh600007?start=2025-03-10' },
  { shape: 'klines', path: '/api/v1/ashare/klines/sh600001?fields=c&start=2030-01-01' },
  { shape: 'klines', path: '/api/v1/ashare/klines/sh600001?limit=60&adj=qfq&qfq_base=2024-12-31' },
  { shape: 'klinesBatch', path: '/api/v1/ashare/klines?symbols=sh600001,sz000002,nope&fields=*&limit=30' },
  { shape: 'klinesBatch', path: '/api/v1/ashare/klines?symbols=sh600007,sz000004&date=2025-03-14' },
  { shape: 'klines', path: '/api/v1/ashare/klines/600001.SH?period=month&adj=hfq' },
  { shape: 'klines', path: '/api/v1/ashare/klines/sh600007?period=week&fields=o,c,v' },
  { shape: 'klinesBatch', path: '/api/v1/ashare/klines?symbols=sh600001,000002.SZ,nope&period=quarter&adj=qfq' },
  { shape: 'crossSection', path: '/api/v1/ashare/klines?date=20250314&adj=qfq' },
  { shape: 'crossSection', path: '/api/v1/ashare/klines?date=2025-03-14&fields=c&limit=3&offset=2' },
  { shape: 'crossSection', path: '/api/v1/hkstock/klines?date=2025-03-15' },
  { shape: 'detail', path: '/api/v1/ashare/detail/sh600001' },
  { shape: 'detail', path: '/api/v1/ashare/detail/sh600008?fields=name,close,pe_ratio' },
  { shape: 'detailBatch', path: '/api/v1/ashare/detail?symbols=sz000004,sh600007,sh600008,nope' },
  { shape: 'detailBatch', path: '/api/v1/hkstock/detail?symbols=hk00700,hk09988&fields=wb_ratio,market_type' },
  { shape: 'screen', path: '/api/v1/ashare/screen?fields=*' },
  { shape: 'screen', path: '/api/v1/ashare/screen?min_pe_ratio=1000000' },
  { shape: 'screen', path: '/api/v1/ashare/screen?fields=*&as_of=2025-01-15' },
  { shape: 'detail', path: '/api/v1/ashare/detail/sh600001?as_of=2025-01-15' },
  { shape: 'detailBatch', path: '/api/v1/ashare/detail?symbols=sh600001,sz000002,nope&as_of=2025-01-15' },
  { shape: 'macro', path: '/api/v1/macro' },
  { shape: 'quota', path: '/api/v1/quota' },
  { shape: 'calendar', path: '/api/v1/ashare/calendar?limit=50&offset=3' },
  { shape: 'calendar', path: '/api/v1/crypto/calendar' },
  { shape: 'actions', path: '/api/v1/ashare/actions/sh600001' },
  { shape: 'actions', path: '/api/v1/hkstock/actions/hk09988' },
  { shape: 'macroIndicators', path: '/api/v1/macro/indicators' },
];

interface Bytes {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET with the pro key, the body kept as bytes. */
function getBytes(path: string, headers: Record<string, string> = {}): Promise<Bytes> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        headers: { 'x-api-key': server.keys.pro, connection: 'close', ...headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const withFormat = (path: string, format: string): string => `${path}${path.includes('?') ? '&' : '?'}format=${format}`;

/** The JSON answer of a case: the reference every other format is held to. */
async function jsonOf(path: string): Promise<any> {
  const res = await getBytes(path);
  assert.equal(res.status, 200, `${path}: ${res.body}`);
  return JSON.parse(res.body.toString('utf8'));
}

/** The rows of a JSON answer as CSV should hold them: the header keys and one row per data row. */
function expectedCsv(shape: FlatShapeName, value: any): { columns: string[]; rows: unknown[][] } {
  const table = (rows: Record<string, unknown>[], columns: string[]) => ({
    columns,
    rows: rows.map((r) => columns.map((c) => r[c])),
  });
  switch (shape) {
    case 'klines':
    case 'crossSection':
      return table(value.data, value.fields);
    case 'klinesBatch':
      return table(Object.values(value.data as Record<string, Record<string, unknown>[]>).flat(), value.fields);
    case 'detail':
      return table([value.data], Object.keys(value.data));
    case 'detailBatch': {
      const rows = Object.values(value.data as Record<string, Record<string, unknown>>);
      return table(rows, Object.keys(rows[0]));
    }
    case 'screen':
      return table(value.data, value.data.length > 0 ? Object.keys(value.data[0]) : []);
    case 'macro': {
      const keys = [...new Set((value.data as { data: object }[]).flatMap((r) => Object.keys(r.data)))];
      return {
        columns: ['indicator', 'date', ...keys],
        rows: value.data.map((r: any) => [r.indicator, r.date, ...keys.map((k) => r.data[k])]),
      };
    }
    case 'symbols':
      return table(value.data, ['symbol', 'name']);
    case 'calendar':
      return table(value.data, ['date']);
    case 'actions':
      return table(value.data, ['date', 'adj_factor', 'prev_adj_factor', 'ratio']);
    case 'macroIndicators':
      return {
        columns: ['indicator', 'frequency', 'start', 'end', 'key', 'unit'],
        rows: value.data.flatMap((d: any) =>
          d.keys.map((k: any) => [d.indicator, d.frequency, d.start, d.end, k.key, k.unit]),
        ),
      };
    default:
      return table(value.data, ['market', 'symbols', 'rows', 'start_date', 'end_date']);
  }
}

/** The cells of an Arrow table, row by row, as the JSON answer holds them: a date32 (ms since the epoch) as YYYY-MM-DD. */
function arrowRows(table: Table): unknown[][] {
  const columns = table.schema.fields.map((field, k) => {
    const vector = table.getChildAt(k)!;
    const isDate = DataType.isDate(field.type);
    return Array.from({ length: table.numRows }, (_, r) => {
      const v: unknown = vector.get(r);
      return v === null || v === undefined ? null : isDate ? new Date(v as number).toISOString().slice(0, 10) : v;
    });
  });
  return Array.from({ length: table.numRows }, (_, r) => columns.map((column) => column[r]));
}

/** A CSV cell read back: empty is null; a JSON number's text is that number. */
const cellMatches = (cell: string, value: unknown): boolean =>
  value === null || value === undefined
    ? cell === ''
    : typeof value === 'number'
      ? cell !== '' && Number(cell) === value
      : cell === value;

/** /quota counts every request: an answer `asksLater` requests after the reference has that many more. */
const expectedAt = (shape: FlatShapeName, json: any, asksLater: number): any =>
  shape === 'quota' ? { ...json, requests_today: json.requests_today + asksLater } : json;

for (const c of CASES) {
  test(`${c.path}: msgpack unpacks to exactly the JSON value, keys in the same order`, async () => {
    const json = await jsonOf(c.path);
    for (let ask = 1; ask <= 3; ask++) {
      const res = await getBytes(withFormat(c.path, 'msgpack'));
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'application/msgpack');
      assertJsonExact(unpack(res.body), expectedAt(c.shape, json, ask), `ask ${ask}: msgpack value`);
    }
  });

  test(`${c.path}: flatbuffers read through flatc's generated code equal the JSON value`, async (t) => {
    if (!needsFlatc(t)) return;
    const json = await jsonOf(c.path);
    for (let ask = 1; ask <= 3; ask++) {
      const res = await getBytes(c.path, { accept: 'application/x-flatbuffers' });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'application/x-flatbuffers');
      assert.deepStrictEqual(
        await decodeFlatbuffers(c.shape, res.body),
        expectedAt(c.shape, json, ask),
        `ask ${ask}: flatbuffers value`,
      );
    }
  });

  if (c.shape === 'quota') {
    test(`${c.path}: CSV and Arrow are 406 not_acceptable (a record without rows)`, async () => {
      for (const res of [
        await getBytes(withFormat(c.path, 'csv')),
        await getBytes(c.path, { accept: 'text/csv' }),
        await getBytes(withFormat(c.path, 'arrow')),
        await getBytes(c.path, { accept: 'application/vnd.apache.arrow.stream' }),
      ]) {
        assert.equal(res.status, 406);
        assert.equal(res.headers['content-type'], 'application/problem+json');
        assert.equal(JSON.parse(res.body.toString()).code, 'not_acceptable');
      }
    });
  } else {
    test(`${c.path}: Arrow read by apache-arrow holds the JSON rows (dates as date32, nulls as nulls) and its scalars as metadata`, async () => {
      const json = await jsonOf(c.path);
      const expected = expectedCsv(c.shape, json);
      for (let ask = 1; ask <= 3; ask++) {
        const res = await getBytes(ask === 2 ? c.path : withFormat(c.path, 'arrow'), {
          accept: 'application/vnd.apache.arrow.stream',
        });
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-type'], 'application/vnd.apache.arrow.stream');
        const table = tableFromIPC(res.body) as Table;
        assert.equal(table.batches.length <= 1, true, 'one record batch');
        if (expected.rows.length > 0)
          assert.deepEqual(
            table.schema.fields.map((f) => f.name),
            expected.columns,
            `ask ${ask}: columns`,
          );
        assert.equal(table.numRows, expected.rows.length, `ask ${ask}: rows`);
        assert.deepEqual(
          arrowRows(table),
          expected.rows.map((row) => row.map((cell) => cell ?? null)),
          `ask ${ask}: cells`,
        );
        for (const [key, value] of Object.entries(json)) {
          if (key === 'data') continue;
          const text = table.schema.metadata.get(key);
          assert.deepEqual(
            typeof value === 'string' ? text : JSON.parse(text ?? 'undefined'),
            value,
            `metadata ${key}`,
          );
        }
      }
    });

    test(`${c.path}: CSV parsed by csv-parse holds the JSON rows, nulls as empty cells`, async () => {
      const json = await jsonOf(c.path);
      const expected = expectedCsv(c.shape, json);
      for (let ask = 1; ask <= 3; ask++) {
        const res = await getBytes(withFormat(c.path, 'csv'));
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
        assert.ok(res.body.toString().endsWith('\r\n'), 'CRLF line ends');
        const [header, ...rows] = parseCsv(res.body.toString('utf8'), { relax_column_count: false }) as string[][];
        if (expected.rows.length > 0) assert.deepEqual(header, expected.columns, `ask ${ask}: header`);
        assert.equal(rows.length, expected.rows.length, `ask ${ask}: one line per row`);
        rows.forEach((row, r) =>
          row.forEach((cell, k) =>
            assert.ok(
              cellMatches(cell, expected.rows[r][k]),
              `ask ${ask}: row ${r} ${header[k]}: '${cell}' vs ${JSON.stringify(expected.rows[r][k])}`,
            ),
          ),
        );
      }
    });
  }

  for (const encoding of ['gzip', 'br'] as const) {
    test(`${c.path}: ${encoding} inflates to the identity bytes in every format (bodies under 1 KiB go as they are)`, async () => {
      for (const format of ['json', 'msgpack', 'flatbuffers', 'csv', 'arrow']) {
        if ((format === 'csv' || format === 'arrow') && c.shape === 'quota') continue;
        const identity = await getBytes(withFormat(c.path, format));
        for (let ask = 1; ask <= 3; ask++) {
          const res = await getBytes(withFormat(c.path, format), { 'accept-encoding': encoding });
          assert.equal(res.status, 200);
          if (identity.body.length < 1024) {
            assert.equal(
              res.headers['content-encoding'],
              undefined,
              `${format}: ${identity.body.length} B go uncompressed`,
            );
            if (c.shape !== 'quota') assert.deepEqual(res.body, identity.body); // /quota's counts move with every request
            continue;
          }
          assert.equal(res.headers['content-encoding'], encoding, `${format} ask ${ask}: Content-Encoding`);
          const inflated = encoding === 'gzip' ? gunzipSync(res.body) : brotliDecompressSync(res.body);
          assert.deepEqual(inflated, identity.body, `${format} ask ${ask}: inflates to the identity body`);
          assert.ok(res.body.length < identity.body.length, `${format}: compressed is smaller`);
          assert.notEqual(res.headers.etag, identity.headers.etag, `${format}: each encoding has its own ETag`);
        }
      }
    });
  }
}

test('the suite covers every shape the routes answer', async () => {
  const { routesFor } = await import('../../../transport/routes/index.js');
  const { Guard } = await import('../../../transport/guard/guard.js');
  const shapes = new Set(
    routesFor(new Guard()).flatMap((r) => [r.shape, ...(r.otherShapes ?? []).map((o) => o.shape)].map((s) => s.name)),
  );
  assert.deepEqual([...new Set(CASES.map((c) => c.shape))].sort(), [...shapes].sort());
});
