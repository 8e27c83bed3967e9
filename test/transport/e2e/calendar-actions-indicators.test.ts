// GET /{market}/calendar, /{market}/actions/{symbol} and /macro/indicators: whole answers against the fixture's CSV text, paging, errors and the rows they charge.

import assert from 'node:assert/strict';
import { cp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { FIXTURE, startTestServer, type TestServer } from '../../helpers/api-server.js';
import { assertJsonExact, assertProblem, ok, startAnswerServer, startLimitServer } from '../../helpers/e2e.js';
import { ALL_MARKETS, FIX, FIXTURE_MARKETS } from '../../helpers/fixture-model.js';
import { csv, KLINE_HEADER, tempDir, writeSnapshotFolder } from '../../helpers/snapshot-folder.js';

let server: TestServer;
before(async () => (server = await startAnswerServer()));
after(() => server.close());

const h = (res: { headers: Record<string, unknown> }, name: string): string | undefined =>
  res.headers[name] as string | undefined;

// ---- the expectations, from the fixture's CSV text ----

/** The market's days: the sorted union of every symbol's K-line dates. */
const fixtureDays = (market: string): string[] =>
  [...new Set([...FIX[market].bars.values()].flat().map((b) => b.date))].sort();

function calendarAnswer(market: string, q: { start?: string; end?: string; limit: number; offset?: number }) {
  const inRange = fixtureDays(market).filter(
    (d) => (q.start === undefined || d >= q.start) && (q.end === undefined || d <= q.end),
  );
  const offset = q.offset ?? 0;
  const data = inRange.slice(offset, offset + q.limit).map((date) => ({ date }));
  return { market, total: inRange.length, count: data.length, limit: q.limit, offset, data };
}

/** A decimal text as an integer and its scale: '1.078512' → 1078512n, 6. */
function decimal(text: string): { n: bigint; scale: number } {
  const [int, frac = ''] = text.split('.');
  return { n: BigInt(int + frac), scale: frac.length };
}

/** a ÷ b of two positive decimal texts, rounded half away from zero to 6 decimals, exactly. */
function ratio6(a: string, b: string): number {
  const x = decimal(a);
  const y = decimal(b);
  const num = x.n * 10n ** BigInt(y.scale) * 1_000_000n;
  const den = y.n * 10n ** BigInt(x.scale);
  return Number((2n * num + den) / (2n * den)) / 1e6;
}

function actionsAnswer(market: string, symbol: string, start?: string, end?: string) {
  const bars = FIX[market].bars.get(symbol) ?? [];
  const data = bars
    .map((b, i) => ({ b, prev: bars[i - 1] }))
    .filter(({ b, prev }) => prev !== undefined && Number(b.adj) !== Number(prev.adj))
    .filter(({ b }) => (start === undefined || b.date >= start) && (end === undefined || b.date <= end))
    .map(({ b, prev }) => ({
      date: b.date,
      adj_factor: Number(b.adj),
      prev_adj_factor: Number(prev.adj),
      ratio: ratio6(b.adj, prev.adj),
    }));
  return { market, symbol, count: data.length, data };
}

const DOCUMENTED_UNITS: Record<string, string> = {
  GDP_GDP: '100 million CNY',
  GDP_GDP_YOY: '%',
  GDP_PRIMARY_YOY: '%',
  GDP_SECONDARY_YOY: '%',
  GDP_TERTIARY_YOY: '%',
};
const DOCUMENTED_KEYS: Record<string, string[]> = {
  gdp: ['GDP_GDP', 'GDP_GDP_YOY', 'GDP_PRIMARY_YOY', 'GDP_SECONDARY_YOY', 'GDP_TERTIARY_YOY'],
  cpi_ppi: ['CPI_CPI_YOY', 'CPI_CPI_MOM', 'PPI_PPI_YOY', 'CPI_CORE_YOY'],
  pmi: ['PMI_MANUFACTURING', 'PMI_NON_MANUFACTURING'],
};

/** Months between two YYYY-MM-DD days by their year and month. */
const monthsApart = (a: string, b: string): number =>
  (+b.slice(0, 4) - +a.slice(0, 4)) * 12 + (+b.slice(5, 7) - +a.slice(5, 7));

/** The indicators answer of a macro.csv text (indicator,date,key,value; dates YYYY-MM-DD). */
function indicatorsAnswer(macroCsv: string) {
  const lines = macroCsv.trim().split('\n').slice(1);
  const found = new Map<string, { dates: Set<string>; keys: Set<string> }>();
  for (const line of lines) {
    const [indicator, date, key] = line.split(',').map((c) => c.trim());
    if (!found.has(indicator)) found.set(indicator, { dates: new Set(), keys: new Set() });
    found.get(indicator)!.dates.add(date);
    found.get(indicator)!.keys.add(key);
  }
  const data = ['gdp', 'cpi_ppi', 'pmi']
    .filter((i) => found.has(i))
    .map((indicator) => {
      const { dates, keys } = found.get(indicator)!;
      const sorted = [...dates].sort();
      const gaps = sorted.slice(1).map((d, i) => monthsApart(sorted[i], d));
      const frequency =
        gaps.length > 0 && gaps.every((g) => g === 1)
          ? 'monthly'
          : gaps.length > 0 && gaps.every((g) => g === 3)
            ? 'quarterly'
            : 'irregular';
      const documented = DOCUMENTED_KEYS[indicator].filter((k) => keys.has(k));
      const others = [...keys].filter((k) => !documented.includes(k)).sort();
      return {
        indicator,
        frequency,
        start: sorted[0],
        end: sorted.at(-1)!,
        keys: [...documented, ...others].map((key) => ({ key, unit: DOCUMENTED_UNITS[key] ?? null })),
      };
    });
  return { count: data.length, data };
}

// ---- calendar ----

test('calendar: every market answers the sorted union of its symbols’ K-line dates; empty markets total 0', async () => {
  for (const market of ALL_MARKETS) {
    const body = ok(await server.get(`/api/v1/${market}/calendar?limit=500`), market);
    assertJsonExact(body, calendarAnswer(market, { limit: 500 }), `${market}: every day, ascending`);
  }
  assert.equal(fixtureDays('ashare').length, 85, 'the fixture: 85 ashare days');
});

test('calendar: limit defaults to 100 and offset to 0, counting from the earliest day', async () => {
  const body = ok(await server.get('/api/v1/hkstock/calendar'), 'defaults');
  assertJsonExact(body, calendarAnswer('hkstock', { limit: 100 }), 'all 8 hkstock days');
});

test('calendar: start and end bound the window (inclusive), total counts it before limit and offset', async () => {
  const q = { start: '2025-01-01', end: '2025-03-12', limit: 7, offset: 5 };
  const body = ok(
    await server.get(`/api/v1/ashare/calendar?start=${q.start}&end=${q.end}&limit=${q.limit}&offset=${q.offset}`),
    'window',
  );
  assertJsonExact(body, calendarAnswer('ashare', q), 'days 6–12 of the window');
  const edges = ok(await server.get('/api/v1/ashare/calendar?start=2025-03-14&end=2025-03-14'), 'one day');
  assertJsonExact(
    edges,
    calendarAnswer('ashare', { start: '2025-03-14', end: '2025-03-14', limit: 100 }),
    'start = end',
  );
  const none = ok(await server.get('/api/v1/ashare/calendar?start=2030-01-01'), 'after the last day');
  assertJsonExact(none, { market: 'ashare', total: 0, count: 0, limit: 100, offset: 0, data: [] }, 'no days');
});

test('calendar: limit above the plan’s rows per call is clamped and the answer shows the value used', async () => {
  const free = ok(await server.get('/api/v1/ashare/calendar?limit=9999', { key: server.keys.free }), 'free');
  assertJsonExact(free, calendarAnswer('ashare', { limit: 100 }), 'free: 100 rows per call');
  const pro = ok(await server.get('/api/v1/ashare/calendar?limit=9999'), 'pro');
  assert.equal(pro.limit, 500, 'pro: 500 rows per call');
});

test('calendar: Link rel="next" while days remain walks every day once, in order; none on the last page', async () => {
  const days: string[] = [];
  let next: string | null = '/api/v1/ashare/calendar?start=2024-06-01&limit=9';
  let pages = 0;
  while (next !== null) {
    const res = await server.get(next);
    const body = ok(res, next);
    days.push(...body.data.map((d: { date: string }) => d.date));
    const link = h(res, 'link');
    const remain = body.offset + body.count < body.total;
    assert.equal(link !== undefined, remain, `${next}: Link exactly while days remain`);
    next = link === undefined ? null : /^<([^>]+)>; rel="next"$/.exec(link)![1];
    if (next !== null) assert.match(next, /start=2024-06-01/, 'the next page keeps the window');
    assert.ok(++pages < 50, 'the walk ends');
  }
  assert.deepEqual(
    days,
    calendarAnswer('ashare', { start: '2024-06-01', limit: 500 }).data.map((d) => d.date),
  );
  assert.equal(pages, Math.ceil(days.length / 9));
});

test('calendar: ETag and If-None-Match answer 304 with no body', async () => {
  const first = await server.get('/api/v1/usstock/calendar');
  const etag = h(first, 'etag');
  assert.ok(etag, 'a 200 has an ETag');
  const again = await server.get('/api/v1/usstock/calendar', { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
  assert.equal(again.text, '');
});

test('calendar: bad parameters are 400 invalid_parameter naming the parameter; an unknown market is 400', async () => {
  for (const [query, param] of [
    ['?start=2025-03-14&end=2025-03-01', 'start'],
    ['?start=2025-02-30', 'start'],
    ['?end=yesterday', 'end'],
    ['?limit=0', 'limit'],
    ['?offset=-1', 'offset'],
    ['?limit=1e3', 'limit'],
    ['?symbol=sh600001', 'symbol'],
    ['?limit=1&limit=2', 'limit'],
  ])
    assertProblem(await server.get(`/api/v1/ashare/calendar${query}`), 400, 'invalid_parameter', param, query);
  assertProblem(await server.get('/api/v1/nasdaq/calendar'), 400, 'unknown_market', 'market');
  assertProblem(await server.get('/api/v1/macro/calendar'), 400, 'unknown_market', 'market', 'macro is no market');
});

// ---- actions ----

test("actions: every fixture symbol's answer is its adj_factor changes, with ratios rounded to 6 decimals", async () => {
  let events = 0;
  for (const market of FIXTURE_MARKETS)
    for (const symbol of FIX[market].symbols) {
      const body = ok(await server.get(`/api/v1/${market}/actions/${symbol}`), `${market} ${symbol}`);
      const want = actionsAnswer(market, symbol);
      assertJsonExact(body, want, `${market} ${symbol}`);
      events += want.count;
    }
  assert.equal(events, 6, 'the fixture: 3 for sh600001, 1 each for sz000003, hk00700 and usAAPL');
  const split = ok(await server.get('/api/v1/ashare/actions/sh600001'), 'sh600001').data.at(-1);
  assert.deepEqual(
    split,
    { date: '2025-02-20', adj_factor: 2.157024, prev_adj_factor: 1.078512, ratio: 2 },
    'a 2-for-1 split shows 2',
  );
});

test('actions: the symbol in any case answers in canonical case', async () => {
  const body = ok(await server.get('/api/v1/usstock/actions/USaapl'), 'USaapl');
  assertJsonExact(body, actionsAnswer('usstock', 'usAAPL'), 'usAAPL, a 4-for-1 split');
});

test('actions: start and end select events by their day (inclusive), compared with the row before start', async () => {
  for (const [start, end] of [
    ['2025-01-15', undefined],
    [undefined, '2025-02-19'],
    ['2025-01-15', '2025-01-15'],
    ['2025-01-16', '2025-02-19'],
  ] as const) {
    const query = [start && `start=${start}`, end && `end=${end}`].filter(Boolean).join('&');
    const body = ok(await server.get(`/api/v1/ashare/actions/sh600001?${query}`), query);
    assertJsonExact(body, actionsAnswer('ashare', 'sh600001', start, end), query);
  }
});

test('actions: bad parameters are 400 (before the symbol is looked up), an unknown symbol 404', async () => {
  for (const [path, param] of [
    ['/api/v1/ashare/actions/sh600001?start=2025-03-14&end=2025-03-01', 'start'],
    ['/api/v1/ashare/actions/sh600001?end=2025-13-01', 'end'],
    ['/api/v1/ashare/actions/sh600001?limit=5', 'limit'],
    ['/api/v1/ashare/actions/nope?start=2025-03-14&end=2025-03-01', 'start'],
  ])
    assertProblem(await server.get(path), 400, 'invalid_parameter', param, path);
  assertProblem(await server.get('/api/v1/ashare/actions/sh999999'), 404, 'unknown_symbol', 'symbol');
  assertProblem(
    await server.get('/api/v1/ashare/actions/hk00700'),
    404,
    'unknown_symbol',
    'symbol',
    'another market’s symbol',
  );
  assertProblem(await server.get('/api/v1/nasdaq/actions/sh600001'), 400, 'unknown_market', 'market');
});

// ---- macro indicators ----

test('macro/indicators: the fixture’s indicators with keys, units, first and last dates (one release each: irregular)', async () => {
  const macroCsv = await readFile(join(FIXTURE, 'macro.csv'), 'utf8');
  const body = ok(await server.get('/api/v1/macro/indicators'), 'indicators');
  assertJsonExact(body, indicatorsAnswer(macroCsv), 'from macro.csv');
  assert.deepEqual(body.data[0].keys, [
    { key: 'GDP_GDP', unit: '100 million CNY' },
    { key: 'GDP_GDP_YOY', unit: '%' },
  ]);
});

test('macro/indicators: monthly, quarterly and irregular series, and a key no unit is documented for', async (t) => {
  const dir = await tempDir('mdq-indicators-');
  t.after(() => dir.cleanup());
  const macroCsv = csv(
    'indicator,date,key,value',
    ...['2024-03-31', '2024-06-30', '2024-09-30', '2024-12-31'].flatMap((d, i) => [
      `gdp,${d},GDP_GDP,${1000 + i}`,
      `gdp,${d},GDP_GDP_YOY,5.${i}`,
      `gdp,${d},GDP_TERTIARY_YOY,`,
    ]),
    ...['2024-11-30', '2024-12-31', '2025-01-31', '2025-02-28'].flatMap((d) => [
      `cpi_ppi,${d},CPI_CPI_YOY,0.5`,
      `cpi_ppi,${d},CPI_NEW_SERIES,1`,
    ]),
    'pmi,2025-01-31,PMI_MANUFACTURING,49.1',
    'pmi,2025-02-28,PMI_MANUFACTURING,50.2',
    'pmi,2025-04-30,PMI_MANUFACTURING,50.4',
  );
  const folder = await writeSnapshotFolder(join(dir.path, 'snapshot'), {
    'ashare/klines.csv': csv(KLINE_HEADER, 'sh600001,2025-03-14,1,1,1,1,1,1,1'),
    'macro.csv': macroCsv,
  });
  const other = await startTestServer({ snapshot: folder });
  t.after(() => other.close());
  const body = ok(await other.get('/api/v1/macro/indicators'), 'indicators');
  assertJsonExact(body, indicatorsAnswer(macroCsv), 'from the CSV written here');
  assert.deepEqual(
    body.data.map((d: { frequency: string }) => d.frequency),
    ['quarterly', 'monthly', 'irregular'],
  );
  assert.deepEqual(body.data[1].keys, [
    { key: 'CPI_CPI_YOY', unit: null },
    { key: 'CPI_NEW_SERIES', unit: null },
  ]);
});

test('macro/indicators: a snapshot without macro data is 404 macro_not_ready', async (t) => {
  const dir = await tempDir('mdq-nomacro-');
  t.after(() => dir.cleanup());
  const folder = join(dir.path, 'snapshot');
  await cp(FIXTURE, folder, { recursive: true });
  await rm(join(folder, 'macro.csv'));
  const other = await startTestServer({ snapshot: folder });
  t.after(() => other.close());
  assertProblem(await other.get('/api/v1/macro/indicators'), 404, 'macro_not_ready');
});

test('macro/indicators takes no parameter; /macro beside it answers as before; other paths under it are 404', async () => {
  assertProblem(await server.get('/api/v1/macro/indicators?indicator=gdp'), 400, 'invalid_parameter', 'indicator');
  const macro = ok(await server.get('/api/v1/macro'), '/macro');
  assert.ok(Array.isArray(macro.data) && 'total' in macro, '/macro is the series route, not the listing');
  assertProblem(await server.get('/api/v1/macro/indicators/gdp'), 404, 'not_found');
  assertProblem(await server.get('/api/v1/ashare/indicators'), 404, 'not_found');
});

// ---- keys and charging ----

test('each route needs a key: 401 unauthorized without one', async () => {
  for (const path of ['/api/v1/ashare/calendar', '/api/v1/ashare/actions/sh600001', '/api/v1/macro/indicators'])
    assertProblem(await server.get(path, { key: null }), 401, 'unauthorized', undefined, path);
});

test('calendar and actions charge their count rows; macro/indicators charges none', async (t) => {
  const { server: s } = await startLimitServer(t);
  const key = s.keys.enterprise;
  const remaining = async (path: string): Promise<{ left: number; count: number | undefined }> => {
    const res = await s.get(path, { key });
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    return { left: Number(h(res, 'x-quota-remaining')), count: res.body.count };
  };
  const start = await remaining('/api/v1/quota');
  assert.equal(start.left, 2_000_000);
  const calendar = await remaining('/api/v1/ashare/calendar?limit=30');
  assert.deepEqual([calendar.count, calendar.left], [30, 2_000_000 - 30], 'calendar: 30 rows');
  const actions = await remaining('/api/v1/ashare/actions/sh600001');
  assert.deepEqual([actions.count, actions.left], [3, calendar.left - 3], 'actions: 3 rows');
  const indicators = await remaining('/api/v1/macro/indicators');
  assert.deepEqual([indicators.count, indicators.left], [3, actions.left], 'indicators: 3 indicators, no rows');
  const empty = await remaining('/api/v1/crypto/calendar');
  assert.deepEqual([empty.count, empty.left], [0, actions.left], 'no days, no rows');
});

test('with no rows left today calendar and actions are 429 quota_exhausted; macro/indicators is still served', async (t) => {
  const { server: s, clock } = await startLimitServer(t);
  const key = s.guard.authenticate(s.keys.free)!;
  s.guard.charge(key, key.plan.dailyQuota!, clock.ms);
  for (const path of ['/api/v1/ashare/calendar', '/api/v1/ashare/actions/sh600001'])
    assertProblem(await s.get(path, { key: s.keys.free }), 429, 'quota_exhausted', undefined, path);
  const res = await s.get('/api/v1/macro/indicators', { key: s.keys.free });
  assert.equal(res.status, 200, res.text);
  assert.equal(h(res, 'x-quota-remaining'), '0');
});
