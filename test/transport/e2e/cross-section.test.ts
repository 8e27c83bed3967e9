// GET /{market}/klines?date=D without symbols: one day's rows of every symbol , and YYYYMMDD dates, against the fixture CSV.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ApiResponse, TestServer } from '../../helpers/api-server.js';
import { assertJsonExact, assertProblem, ok, startAnswerServer, startLimitServer } from '../../helpers/e2e.js';
import {
  FIX,
  FIXTURE_MARKETS,
  KLINE_FIELDS,
  type KlineField,
  klineFieldNames,
  klineWindow,
} from '../../helpers/fixture-model.js';

let server: TestServer;
before(async () => (server = await startAnswerServer()));
after(() => server.close());

const api = (path: string, key?: string): Promise<ApiResponse> =>
  server.get(`/api/v1${path}`, key === undefined ? {} : { key });

interface CrossQuery {
  limit: number;
  offset?: number;
  adj?: 'bfq' | 'qfq' | 'hfq';
  fields?: readonly KlineField[];
}

/** Every symbol's row of day `date` (adjusted to the symbol's own latest factor under qfq), by symbol ascending. */
function rowsOfDay(market: string, date: string, q: CrossQuery): Record<string, unknown>[] {
  const fields = q.fields ?? KLINE_FIELDS;
  const symbols = [...FIX[market].bars.keys()].sort();
  return symbols.flatMap((s) => klineWindow(market, s, { start: date, end: date, limit: 1, adj: q.adj, fields }).rows);
}

/** The whole cross-section answer. */
function expected(market: string, date: string, q: CrossQuery): Record<string, unknown> {
  const all = rowsOfDay(market, date, q);
  const offset = q.offset ?? 0;
  const data = all.slice(offset, offset + q.limit);
  return {
    market,
    date,
    total: all.length,
    count: data.length,
    limit: q.limit,
    offset,
    fields: klineFieldNames(q.fields ?? KLINE_FIELDS),
    data,
  };
}

async function check(path: string, exp: Record<string, unknown>, message: string, key?: string): Promise<ApiResponse> {
  const res = await api(path, key);
  assertJsonExact(ok(res, message), exp, message);
  return res;
}

/** Follows `Link: rel="next"` from `path` (under /api/v1), returning every page's answer. */
async function walk(path: string): Promise<ApiResponse[]> {
  const pages: ApiResponse[] = [];
  for (let next: string | null = `/api/v1${path}`; next !== null; ) {
    const res = await server.get(next);
    ok(res, next);
    pages.push(res);
    const link = res.headers.link as string | undefined;
    next = link === undefined ? null : /^<([^>]+)>; rel="next"$/.exec(link)![1];
    assert.ok(pages.length <= 50, 'the walk ends');
  }
  return pages;
}

// The ashare fixture's last day has a row for eight symbols (sh600008 is listed without K-lines).
const LAST_DAY = '2025-03-14';

// ---- The answer ----

test('every symbol with a row that day, ordered by symbol; symbols without one are absent', async () => {
  const exp = expected('ashare', LAST_DAY, { limit: 100 });
  assert.deepStrictEqual(
    (exp.data as Record<string, unknown>[]).map((r) => r.symbol),
    ['sh600001', 'sh600006', 'sh600007', 'sh600009', 'sz000002', 'sz000003', 'sz000004', 'sz000005'],
    'the fixture’s rows of 2025-03-14',
  );
  await check(`/ashare/klines?date=${LAST_DAY}&fields=*`, exp, 'ashare 2025-03-14');
  const thirteenth = expected('ashare', '2025-03-13', { limit: 100 });
  assert.equal(thirteenth.total, 6, 'sz000002 and sh600009 have no row on 2025-03-13');
  await check('/ashare/klines?date=2025-03-13&fields=*', thirteenth, 'ashare 2025-03-13');
  for (const market of FIXTURE_MARKETS)
    for (const date of ['2025-03-05', '2025-03-12', LAST_DAY])
      await check(
        `/${market}/klines?date=${date}&fields=*`,
        expected(market, date, { limit: 100 }),
        `${market} ${date}`,
      );
});

test('without fields, rows carry every K-line field, as single K-lines do', async () => {
  // "Rows as in single K-lines": read as the single route's default (all six fields), not the batch's close and volume.
  await check(`/ashare/klines?date=${LAST_DAY}`, expected('ashare', LAST_DAY, { limit: 100 }), 'default fields');
});

test('fields narrows every row to symbol, date, the fields in fixed order, and adj_factor', async () => {
  await check(
    `/ashare/klines?date=${LAST_DAY}&fields=v,c`,
    expected('ashare', LAST_DAY, { limit: 100, fields: ['close', 'volume'] }),
    'v,c',
  );
  await check(
    '/hkstock/klines?date=2025-03-13&fields=amount,open',
    expected('hkstock', '2025-03-13', { limit: 100, fields: ['open', 'amount'] }),
    'amount,open',
  );
});

test('adj=qfq divides each symbol by its own latest factor; adj=hfq multiplies by the day’s', async () => {
  // On 2025-03-13 sz000003 (1.000000, latest 1.031000) and sh600001 (2.157024, latest too) sit side by side.
  for (const adj of ['qfq', 'hfq'] as const)
    await check(
      `/ashare/klines?date=2025-03-13&adj=${adj}&fields=*`,
      expected('ashare', '2025-03-13', { limit: 100, adj }),
      `ashare ${adj}`,
    );
  await check(
    '/ashare/klines?date=2025-01-14&adj=qfq&fields=o,c',
    expected('ashare', '2025-01-14', { limit: 100, adj: 'qfq', fields: ['open', 'close'] }),
    'a day long before the latest factor',
  );
  await check(
    '/hkstock/klines?date=2025-03-11&adj=qfq',
    expected('hkstock', '2025-03-11', { limit: 100, adj: 'qfq' }),
    'hk00700 before its factor step',
  );
});

test('a day with no rows answers total 0 and an empty list', async () => {
  for (const date of ['2025-03-09', '2025-03-15', '1999-01-04'])
    await check(`/ashare/klines?date=${date}`, expected('ashare', date, { limit: 100 }), `ashare ${date}`);
});

// ---- limit, offset, paging ----

test('limit defaults to 100 and is clamped to the plan’s rows per call', async () => {
  await check(`/usstock/klines?date=${LAST_DAY}`, expected('usstock', LAST_DAY, { limit: 100 }), 'default 100');
  await check(`/usstock/klines?date=${LAST_DAY}&limit=3000`, expected('usstock', LAST_DAY, { limit: 500 }), 'pro 500');
  await check(
    `/usstock/klines?date=${LAST_DAY}&limit=3000`,
    expected('usstock', LAST_DAY, { limit: 100 }),
    'free 100',
    server.keys.free,
  );
  await check(`/usstock/klines?date=${LAST_DAY}&limit=1`, expected('usstock', LAST_DAY, { limit: 1 }), 'limit 1');
});

test('offset skips rows in symbol order; past the end there are none', async () => {
  for (const [limit, offset] of [
    [3, 2],
    [2, 6],
    [5, 7],
    [5, 8],
    [1, 20],
  ])
    await check(
      `/ashare/klines?date=${LAST_DAY}&limit=${limit}&offset=${offset}`,
      expected('ashare', LAST_DAY, { limit, offset }),
      `limit ${limit} offset ${offset}`,
    );
});

test('Link rel="next" while rows remain and none on the last page; the pages together are the whole day', async () => {
  const pages = await walk(`/ashare/klines?date=${LAST_DAY}&limit=3&adj=qfq&fields=c,v`);
  assert.deepStrictEqual(
    pages.map((p) => p.body.count),
    [3, 3, 2],
    'eight rows in pages of three',
  );
  for (const [i, p] of pages.entries())
    assert.equal(
      p.headers.link === undefined,
      i === pages.length - 1,
      `page ${i + 1}: a Link exactly while rows remain`,
    );
  assert.deepStrictEqual(
    pages.flatMap((p) => p.body.data),
    rowsOfDay('ashare', LAST_DAY, { limit: 100, adj: 'qfq', fields: ['close', 'volume'] }),
    'every row once, in symbol order, as adjusted on the first page',
  );
  const whole = await api(`/ashare/klines?date=${LAST_DAY}`);
  assert.equal(whole.headers.link, undefined, 'no Link when one page holds the day');
  const past = await api(`/ashare/klines?date=${LAST_DAY}&offset=8`);
  assert.equal(past.headers.link, undefined, 'no Link past the end');
});

// ---- Dates as YYYYMMDD ----

test('date given as YYYYMMDD is the same answer (answered as YYYY-MM-DD)', async () => {
  await check(`/ashare/klines?date=20250314&fields=*`, expected('ashare', LAST_DAY, { limit: 100 }), '20250314');
  await check(
    '/hkstock/klines?date=20250312&adj=qfq&limit=1&offset=1',
    expected('hkstock', '2025-03-12', { limit: 1, offset: 1, adj: 'qfq' }),
    '20250312',
  );
  await check('/ashare/klines?date=20250309', expected('ashare', '2025-03-09', { limit: 100 }), 'a Sunday');
});

test('YYYYMMDD for start, end, date and qfq_base on K-lines equals the dashed form', async () => {
  const pairs: [compact: string, dashed: string][] = [
    ['/ashare/klines/sh600001?start=20250110&end=20250224', '/ashare/klines/sh600001?start=2025-01-10&end=2025-02-24'],
    [
      '/ashare/klines/sh600001?start=20241201&limit=5&adj=qfq',
      '/ashare/klines/sh600001?start=2024-12-01&limit=5&adj=qfq',
    ],
    ['/hkstock/klines/hk00700?end=20250311&limit=2', '/hkstock/klines/hk00700?end=2025-03-11&limit=2'],
    ['/ashare/klines/sh600001?adj=qfq&qfq_base=20250115', '/ashare/klines/sh600001?adj=qfq&qfq_base=2025-01-15'],
    [
      '/ashare/klines?symbols=sh600001,sz000003&date=20250313',
      '/ashare/klines?symbols=sh600001,sz000003&date=2025-03-13',
    ],
    [
      '/usstock/klines?symbols=usAAPL,usMSFT&start=20250305&end=20250313',
      '/usstock/klines?symbols=usAAPL,usMSFT&start=2025-03-05&end=2025-03-13',
    ],
    ['/ashare/detail/sh600001?as_of=20250213&fields=close', '/ashare/detail/sh600001?as_of=2025-02-13&fields=close'],
  ];
  for (const [compact, dashed] of pairs) {
    const want = ok(await api(dashed), dashed);
    assertJsonExact(ok(await api(compact), compact), want, `${compact} equals ${dashed}`);
  }
  const single = klineWindow('ashare', 'sh600001', { start: '2025-01-10', end: '2025-02-24', limit: 100, fields: [] });
  const body = ok(await api('/ashare/klines/sh600001?start=20250110&end=20250224&fields=c'), 'compact range');
  assert.equal(body.total, single.total, 'the compact range selects the same days');
  assert.deepStrictEqual(
    body.data.map((r: any) => r.date),
    single.rows.map((r) => r.date),
    'dates answered as YYYY-MM-DD',
  );
});

// ---- Refusals ----

test('without symbols and without date: 400 invalid_parameter naming symbols', async () => {
  for (const path of ['/ashare/klines', '/ashare/klines?limit=5', '/usstock/klines?adj=qfq&fields=c'])
    assertProblem(await api(path), 400, 'invalid_parameter', 'symbols', path);
});

test('a malformed or impossible date is 400 invalid_parameter naming date', async () => {
  for (const bad of ['2025-02-30', '20250230', '2025-3-14', '2025031', '202503140', '2025/03/14', '', 'today'])
    assertProblem(await api(`/ashare/klines?date=${bad}`), 400, 'invalid_parameter', 'date', `date=${bad}`);
});

test('a malformed YYYYMMDD start or end on K-lines is 400 naming it', async () => {
  for (const [path, param] of [
    ['/ashare/klines/sh600001?start=20240230', 'start'],
    ['/ashare/klines/sh600001?end=20251301', 'end'],
    ['/ashare/klines/sh600001?start=2025011', 'start'],
    ['/ashare/klines/sh600001?start=20250301&end=20250201', 'start'],
  ])
    assertProblem(await api(path), 400, 'invalid_parameter', param, path);
});

// ---- Charges ----

test('a cross-section charges the rows it returns', async (t) => {
  const { server: s } = await startLimitServer(t);
  let used = 0;
  for (const [path, rows] of [
    [`/ashare/klines?date=${LAST_DAY}`, 8],
    [`/ashare/klines?date=${LAST_DAY}&limit=3&offset=6`, 2],
    ['/ashare/klines?date=2025-03-09', 0],
  ] as const) {
    const res = await s.get(`/api/v1${path}`, { key: s.keys.pro });
    assert.equal(ok(res, path).count, rows, `${path}: ${rows} rows`);
    used += rows;
    assert.equal(res.headers['x-quota-remaining'], String(200_000 - used), `${path}: charged ${rows} rows`);
  }
});
