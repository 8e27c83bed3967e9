// GET /{market}/export: the rows of every paged K-line answer, concatenated, in CSV, NDJSON and Arrow;
// the whole export counted and charged to the export allowance before its first byte (429 when it
// does not fit; 403 on a plan without exports); its format negotiated by Accept;
// a client that leaves midway ends it.

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DataType, type Table, tableFromIPC } from 'apache-arrow';
import { parse as parseCsv } from 'csv-parse/sync';
import { generateDemoSnapshot } from '../../../loaders/demo/index.js';
import { startTestServer, type TestServer } from '../../helpers/api-server.js';
import { DEFAULT_PLANS, type PlanFigures, Plans } from '../../../engine/plans.js';
import { assertProblem, ManualClock, startAnswerServer, startLimitServer } from '../../helpers/e2e.js';
import { tempDir } from '../../helpers/snapshot-folder.js';

let server: TestServer;
before(async () => (server = await startAnswerServer()));
after(() => server.close());

type Row = Record<string, unknown>;

/** GET with the pro key, the body as bytes. */
async function bytesOf(
  path: string,
  key = server.keys.pro,
): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers: { 'x-api-key': key } });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** Every row of one symbol's K-lines for `query`, page after page along `Link: rel="next"`, as the single route answers them. */
async function pagedRows(market: string, symbol: string, query: string): Promise<Row[]> {
  const rows: Row[] = [];
  let path: string | null = `/api/v1/${market}/klines/${symbol}?${query}&start=1990-01-01&limit=7`;
  while (path !== null) {
    const res = await server.get(path, { key: server.keys.pro });
    assert.equal(res.status, 200, res.text);
    rows.push(...res.body.data);
    const link = res.headers.link as string | undefined;
    path = link === undefined ? null : /^<([^>]+)>/.exec(link)![1];
  }
  return rows;
}

/** The export's rows as the paged single-symbol answers give them: every listed symbol, ascending, each paged to its end. */
async function expectedRows(market: string, query: string, symbols?: string[]): Promise<Row[]> {
  const listed = (await server.get(`/api/v1/${market}/symbols?limit=500`, { key: server.keys.pro })).body.data.map(
    (s: { symbol: string }) => s.symbol,
  );
  const out: Row[] = [];
  for (const symbol of (symbols ?? listed).slice().sort()) out.push(...(await pagedRows(market, symbol, query)));
  return out;
}

/** Arrow cells as the JSON rows hold them: a date32 as YYYY-MM-DD, nulls as null. */
function arrowRows(table: Table): Row[] {
  const names = table.schema.fields.map((f) => f.name);
  const dates = table.schema.fields.map((f) => DataType.isDate(f.type));
  return Array.from({ length: table.numRows }, (_, r) =>
    Object.fromEntries(
      names.map((name, k) => {
        const v: unknown = table.getChildAt(k)!.get(r);
        return [name, v === null ? null : dates[k] ? new Date(v as number).toISOString().slice(0, 10) : v];
      }),
    ),
  );
}

const CASES = [
  { market: 'ashare', query: '' },
  { market: 'ashare', query: 'adj=qfq&fields=o,c,v', symbols: ['sh600001', 'sz000005'] },
  { market: 'ashare', query: 'adj=hfq&period=month', symbols: ['sh600001', 'sh600007'] },
  { market: 'usstock', query: 'period=week&adj=qfq' },
  { market: 'hkstock', query: 'end=2025-03-12' },
  { market: 'hkstock', query: 'end=2001-01-02' }, // no rows: a header, a stream of no rows
];

for (const c of CASES) {
  const symbols = c.symbols === undefined ? '' : `symbols=${c.symbols.join(',')}&`;
  const path = `/api/v1/${c.market}/export?${symbols}${c.query}`;

  test(`${path}: CSV holds the paged K-line rows of every symbol, ordered by symbol then date`, async () => {
    const expected = await expectedRows(c.market, c.query, c.symbols);
    const res = await bytesOf(path);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="[a-z]+-[a-z]+\.csv"$/);
    const [header, ...lines] = parseCsv(res.body.toString('utf8')) as string[][];
    const columns = expected.length > 0 ? Object.keys(expected[0]) : header;
    assert.deepEqual(header, columns);
    assert.deepEqual(
      lines,
      expected.map((row) => columns.map((k) => (row[k] === null ? '' : String(row[k])))),
    );
  });

  test(`${path}: NDJSON lines are the paged K-line rows, key for key`, async () => {
    const expected = await expectedRows(c.market, c.query, c.symbols);
    const res = await bytesOf(`${path}&format=ndjson`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/x-ndjson');
    const text = res.body.toString('utf8');
    assert.ok(text === '' || text.endsWith('\n'), 'every line ends');
    const rows =
      text === ''
        ? []
        : text
            .trimEnd()
            .split('\n')
            .map((line) => JSON.parse(line));
    assert.deepEqual(
      rows.map((r) => Object.keys(r)),
      expected.map((r) => Object.keys(r)),
    );
    assert.deepEqual(rows, expected);
  });

  test(`${path}: Arrow read by apache-arrow is one stream of the same rows, the row count in its metadata`, async () => {
    const expected = await expectedRows(c.market, c.query, c.symbols);
    const res = await bytesOf(`${path}&format=arrow`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/vnd.apache.arrow.stream');
    const table = tableFromIPC(res.body) as Table;
    assert.deepEqual(arrowRows(table), expected);
    assert.equal(table.schema.metadata.get('rows'), String(expected.length));
    assert.equal(table.schema.metadata.get('market'), c.market);
  });
}

/** A server whose pro plan has `figures` (a PLANS_FILE's), on a hand-moved clock; closed when the test ends. */
async function serverWithPro(
  t: { after(fn: () => Promise<void> | void): void },
  figures: Partial<PlanFigures>,
): Promise<{ s: TestServer; clock: ManualClock }> {
  const clock = new ManualClock();
  const plans = new Plans(DEFAULT_PLANS.list.map((p) => (p.name === 'pro' ? { ...p, ...figures } : p)));
  const s = await startTestServer({ now: clock.now, plans });
  t.after(() => s.close());
  return { s, clock };
}

/** The rows an export of `path` holds, counted from an internal key's NDJSON (one line a row). */
async function rowsOf(s: TestServer, path: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${s.port}${path}${path.includes('?') ? '&' : '?'}format=ndjson`, {
    headers: { 'x-api-key': s.keys.internal },
  });
  return (await res.text()).trimEnd().split('\n').length;
}

test('an export draws on the export allowance, not the row quota: served with no rows left, export_used grows by its rows, used and X-Quota-Remaining stay', async (t) => {
  const { s, clock } = await serverWithPro(t, { dailyQuota: 10 });
  const rows = await rowsOf(s, '/api/v1/hkstock/export');
  clock.advance(2000);
  const spent = await s.get('/api/v1/ashare/klines?symbols=sh600001,sz000002&limit=100', { key: s.keys.pro });
  assert.equal(spent.headers['x-quota-remaining'], '0', 'the row quota is spent');
  clock.advance(2000);
  const res = await fetch(`http://127.0.0.1:${s.port}/api/v1/hkstock/export?format=ndjson`, {
    headers: { 'x-api-key': s.keys.pro },
  });
  assert.equal(res.status, 200, 'an export is served with no rows left today');
  assert.equal((await res.text()).trimEnd().split('\n').length, rows);
  assert.equal(res.headers.get('x-quota-remaining'), '0', 'the row quota untouched');
  clock.advance(2000);
  const quota = (await s.get('/api/v1/quota', { key: s.keys.pro })).body;
  assert.deepEqual(
    [quota.used, quota.export_quota, quota.export_used, quota.export_remaining],
    [Number(spent.body.count), 20_000_000, rows, 20_000_000 - rows],
  );
  const internal = (await s.get('/api/v1/quota', { key: s.keys.internal })).body;
  assert.deepEqual(
    [internal.export_quota, internal.export_used, internal.export_remaining],
    [null, rows, null],
    'internal keys: unlimited, still counted',
  );
});

test('the free plan has no exports: 403 not_in_plan, nothing counted; its /quota says export_quota 0', async (t) => {
  const { server: s, clock } = await startLimitServer(t);
  const refused = await s.get('/api/v1/hkstock/export', { key: s.keys.free });
  assertProblem(refused, 403, 'not_in_plan');
  clock.advance(2000);
  const quota = (await s.get('/api/v1/quota', { key: s.keys.free })).body;
  assert.deepEqual([quota.export_quota, quota.export_used, quota.export_remaining], [0, 0, 0]);
});

test('an export larger than the allowance left today is 429 export_quota_exhausted naming both counts, before any byte, and charges nothing', async (t) => {
  const { s: probe } = await serverWithPro(t, {});
  const hk = await rowsOf(probe, '/api/v1/hkstock/export');
  const ashare = await rowsOf(probe, '/api/v1/ashare/export');
  const { s, clock } = await serverWithPro(t, { exportRows: hk + ashare - 1 });
  assert.equal((await s.get('/api/v1/hkstock/export', { key: s.keys.pro })).status, 200);
  clock.advance(2000);
  const refused = await s.get('/api/v1/ashare/export', { key: s.keys.pro });
  assertProblem(refused, 429, 'export_quota_exhausted');
  assert.match(refused.body.detail, new RegExp(`holds ${ashare} rows and the key has ${ashare - 1} export rows left`));
  assert.ok(Number(refused.headers['retry-after']) > 0, 'Retry-After: when the day resets');
  assert.equal(refused.headers['content-disposition'], undefined, 'no attachment begun');
  clock.advance(2000);
  const quota = (await s.get('/api/v1/quota', { key: s.keys.pro })).body;
  assert.deepEqual([quota.export_used, quota.export_remaining], [hk, ashare - 1], 'nothing charged');
  clock.advance(2000);
  const fits = await s.get('/api/v1/ashare/export?symbols=sh600001', { key: s.keys.pro });
  assert.equal(fits.status, 200, 'a smaller export still fits');
});

test('two exports at once that fit the allowance one at a time but not together: one is served, the other is 429', async (t) => {
  const { s: probe } = await serverWithPro(t, {});
  const path = '/api/v1/hkstock/export?format=ndjson';
  const size = await rowsOf(probe, '/api/v1/hkstock/export');
  const { s, clock } = await serverWithPro(t, { exportRows: 2 * size - 1 });
  clock.advance(2000);
  const both = await Promise.all([s.get(path, { key: s.keys.pro }), s.get(path, { key: s.keys.pro })]);
  assert.deepEqual(both.map((r) => r.status).sort(), [200, 429]);
  clock.advance(2000);
  assert.equal((await s.get('/api/v1/quota', { key: s.keys.pro })).body.export_used, size, 'one export charged');
});

test('the export negotiates its format by Accept (format= wins; no Accept or */*: CSV; nothing acceptable: 406)', async () => {
  const path = '/api/v1/hkstock/export?fields=c';
  const cases: [string | null, string][] = [
    [null, 'text/csv; charset=utf-8'],
    ['*/*', 'text/csv; charset=utf-8'],
    ['application/vnd.apache.arrow.stream', 'application/vnd.apache.arrow.stream'],
    ['application/x-ndjson', 'application/x-ndjson'],
    ['text/*', 'text/csv; charset=utf-8'],
    ['application/json;q=1, application/x-ndjson;q=0.5, text/csv;q=0.4', 'application/x-ndjson'],
  ];
  for (const [accept, type] of cases) {
    const res = await server.get(path, { headers: accept === null ? {} : { accept } });
    assert.equal(res.status, 200, `${accept}: ${res.text}`);
    assert.equal(res.headers['content-type'], type, `Accept: ${accept}`);
  }
  const arrow = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    headers: { 'x-api-key': server.keys.pro, accept: 'application/vnd.apache.arrow.stream' },
  });
  const table = tableFromIPC(new Uint8Array(await arrow.arrayBuffer()));
  assert.equal(table.numRows, Number(table.schema.metadata.get('rows')), 'a real Arrow stream');
  const wins = await server.get(`${path}&format=csv`, { headers: { accept: 'application/x-ndjson' } });
  assert.equal(wins.headers['content-type'], 'text/csv; charset=utf-8', 'format= wins over Accept');
  const refused = await server.get(path, { headers: { accept: 'application/json' } });
  assertProblem(refused, 406, 'not_acceptable');
  const served = await server.get(path, { headers: { accept: 'text/csv' } });
  assert.equal(served.headers.vary, 'Accept');
  assert.equal(refused.headers.vary, served.headers.vary, 'the 406 varies by Accept as the export it stands for');
});

test('stopping the listener (a drain) cuts an export in progress: the server is idle at once', async () => {
  const dir = await tempDir('mdq-export-drain-');
  try {
    const snapshot = join(dir.path, 'demo');
    await generateDemoSnapshot(snapshot, { symbolScale: 0.05, years: 3, progress: false });
    const big = await startTestServer({ snapshot });
    try {
      const whole = (
        await (
          await fetch(`http://127.0.0.1:${big.port}/api/v1/ashare/export`, {
            headers: { 'x-api-key': big.keys.internal },
          })
        ).arrayBuffer()
      ).byteLength;
      const socket = connect(big.port, '127.0.0.1');
      let received = 0;
      let paused = false;
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      await new Promise<void>((resolve, reject) => {
        socket.on('error', () => {}); // the cut may reset the connection
        socket.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > 64 * 1024 && !paused) (paused = true), socket.pause(), resolve();
        });
        setTimeout(() => reject(new Error('no bytes of the export arrived')), 5000);
        socket.write(`GET /api/v1/ashare/export HTTP/1.1\r\nHost: x\r\nX-API-Key: ${big.keys.internal}\r\n\r\n`);
      });
      big.stopListening();
      await Promise.race([
        big.idle(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('the export held the drain')), 5000)),
      ]);
      socket.resume(); // what the kernel holds arrives, then the end: short of the whole export
      await closed;
      assert.ok(received < whole, `the connection ended after ${received} of the export's ${whole} bytes`);
    } finally {
      await big.close();
    }
  } finally {
    await dir.cleanup();
  }
});

test('bad exports: an unknown symbol is 404 with suggestions, an unknown format or start after end is 400', async () => {
  const unknown = await server.get('/api/v1/ashare/export?symbols=sh600001,sh60000', { key: server.keys.pro });
  assertProblem(unknown, 404, 'unknown_symbol', 'symbols');
  assert.ok(unknown.body.suggestions.length > 0);
  assertProblem(
    await server.get('/api/v1/ashare/export?format=json', { key: server.keys.pro }),
    400,
    'invalid_parameter',
    'format',
  );
  assertProblem(
    await server.get('/api/v1/ashare/export?start=2025-03-14&end=2025-03-01', { key: server.keys.pro }),
    400,
    'invalid_parameter',
    'start',
  );
  assertProblem(await server.get('/api/v1/ashare/export', { key: null }), 401, 'unauthorized');
});

test('a client that stops reading and leaves midway ends the export: the server is idle again and serves the next one whole', async () => {
  const dir = await tempDir('mdq-export-');
  try {
    const snapshot = join(dir.path, 'demo');
    await generateDemoSnapshot(snapshot, { symbolScale: 0.05, years: 3, progress: false });
    const big = await startTestServer({ snapshot });
    try {
      const path = '/api/v1/ashare/export?format=ndjson';
      // Read the first bytes only, then stop reading (the socket's buffers fill: backpressure), then leave.
      const socket = connect(big.port, '127.0.0.1');
      let received = 0;
      await new Promise<void>((resolve, reject) => {
        socket.on('error', reject);
        socket.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > 256 * 1024) socket.pause(), resolve();
        });
        socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${big.keys.internal}\r\n\r\n`);
      });
      await new Promise((r) => setTimeout(r, 200));
      socket.destroy();
      await Promise.race([
        big.idle(),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('the export kept running after its client left')), 5000),
        ),
      ]);
      const whole = await fetch(`http://127.0.0.1:${big.port}${path}`, { headers: { 'x-api-key': big.keys.internal } });
      const text = await whole.text();
      assert.ok(
        text.length > 4 * received,
        `the whole export (${text.length} B) is more than the part read (${received} B)`,
      );
      assert.ok(text.endsWith('\n'));
    } finally {
      await big.close();
    }
  } finally {
    await dir.cleanup();
  }
});
