// GET /{market}/klines/{symbol}: windows, fields, adjustment and clamping, against the fixture CSV computed here.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestServer } from '../../helpers/api-server.js';
import { assertJsonExact, assertProblem, ok, startAnswerServer } from '../../helpers/e2e.js';
import {
  FIX,
  FIXTURE_MARKETS,
  KLINE_FIELDS,
  type KlineField,
  type KlineQuery,
  klineFieldNames,
  klineWindow,
} from '../../helpers/fixture-model.js';

let server: TestServer;
before(async () => (server = await startAnswerServer()));
after(() => server.close());

/** The whole answer of a single-symbol query, built from the fixture. */
function expected(market: string, symbol: string, q: Partial<KlineQuery> & { limit: number }): Record<string, unknown> {
  const fields = q.fields ?? KLINE_FIELDS;
  const w = klineWindow(market, symbol, { ...q, fields });
  return {
    market,
    symbol,
    count: w.rows.length,
    total: w.total,
    offset: q.offset ?? 0,
    limit: q.limit,
    fields: klineFieldNames(fields),
    data: w.rows,
  };
}

async function check(path: string, exp: Record<string, unknown>, message: string, key?: string): Promise<void> {
  const res = await server.get(`/api/v1${path}`, key === undefined ? {} : { key });
  assertJsonExact(ok(res, message), exp, message);
}

test('no parameters: the latest 100 rows (all 85 of sh600001), every field, bfq, ascending', async () => {
  await check(
    '/ashare/klines/sh600001',
    expected('ashare', 'sh600001', { limit: 100 }),
    'default window is the most recent rows, limit 100',
  );
});

test('limit alone gives the most recent days, still by date ascending', async () => {
  await check(
    '/ashare/klines/sh600001?limit=5',
    expected('ashare', 'sh600001', { limit: 5 }),
    'limit=5 is the five latest days',
  );
});

test('without start, offset skips backward from the latest row', async () => {
  await check(
    '/ashare/klines/sh600001?limit=3&offset=4',
    expected('ashare', 'sh600001', { limit: 3, offset: 4 }),
    'rows 8..5 from the end',
  );
});

test('with start, the window begins at the first row on or after start (a Saturday here)', async () => {
  await check(
    '/ashare/klines/sh600001?start=2025-02-01&limit=4',
    expected('ashare', 'sh600001', { start: '2025-02-01', limit: 4 }),
    'starts on Monday 2025-02-03',
  );
});

test('with start, offset skips forward from there', async () => {
  await check(
    '/ashare/klines/sh600001?start=2025-02-01&limit=4&offset=3',
    expected('ashare', 'sh600001', { start: '2025-02-01', offset: 3, limit: 4 }),
    'offset 3 forward',
  );
});

test('end alone anchors the window at the last row on or before end, offset backward', async () => {
  await check(
    '/ashare/klines/sh600001?end=2025-02-16&limit=3&offset=1',
    expected('ashare', 'sh600001', { end: '2025-02-16', offset: 1, limit: 3 }),
    'ends one row before 2025-02-14',
  );
});

test('start and end bound the range; total counts the range before limit and offset', async () => {
  const q = { start: '2024-12-01', end: '2025-01-31', offset: 2, limit: 7 };
  await check(
    '/ashare/klines/sh600001?start=2024-12-01&end=2025-01-31&offset=2&limit=7',
    expected('ashare', 'sh600001', q),
    'range window',
  );
});

test('an offset past the range answers no rows, with the range total', async () => {
  await check(
    '/ashare/klines/sz000003?offset=10',
    expected('ashare', 'sz000003', { offset: 10, limit: 100 }),
    'count 0, total 5',
  );
});

test('a symbol that exists but has no K-lines answers an empty window', async () => {
  await check(
    '/ashare/klines/sh600008',
    expected('ashare', 'sh600008', { limit: 100 }),
    'sh600008 is listed but has no rows',
  );
});

test('fields by short codes come back in the fixed order open, high, low, close, volume, amount', async () => {
  const fields: KlineField[] = ['open', 'close', 'volume'];
  await check(
    '/ashare/klines/sh600001?fields=v,c,o&limit=3',
    expected('ashare', 'sh600001', { limit: 3, fields }),
    'v,c,o → open, close, volume',
  );
});

test('fields by full names, and a code and a name for the same column, select it once', async () => {
  const fields: KlineField[] = ['high', 'low', 'amount'];
  await check(
    '/ashare/klines/sh600001?fields=amount,low,high,h&limit=2',
    expected('ashare', 'sh600001', { limit: 2, fields }),
    'full names',
  );
});

test('fields=* selects every column; symbol, date and adj_factor are always answered', async () => {
  await check('/ashare/klines/sh600001?fields=*&limit=2', expected('ashare', 'sh600001', { limit: 2 }), 'fields=*');
  await check(
    '/ashare/klines/sh600001?fields=symbol,date,adj_factor&limit=2',
    expected('ashare', 'sh600001', { limit: 2, fields: [] }),
    'only the fixed columns',
  );
});

test('adj=qfq divides by the adj_factor of the latest stored day, rounded to 4 decimals', async () => {
  const q = { start: '2025-01-10', end: '2025-02-24', limit: 100, adj: 'qfq' as const };
  await check(
    '/ashare/klines/sh600001?start=2025-01-10&end=2025-02-24&adj=qfq',
    expected('ashare', 'sh600001', q),
    'qfq across two factor steps',
  );
});

test('adj=qfq uses the latest stored day even when the window ends earlier', async () => {
  const q = { end: '2025-01-14', limit: 6, adj: 'qfq' as const };
  await check(
    '/ashare/klines/sh600001?end=2025-01-14&limit=6&adj=qfq',
    expected('ashare', 'sh600001', q),
    'base is 2.157024 (2025-03-14), not the window’s 1.052631',
  );
});

test('adj=hfq multiplies by adj_factor; volume and amount are never adjusted', async () => {
  await check(
    '/usstock/klines/usAAPL?adj=hfq',
    expected('usstock', 'usAAPL', { limit: 100, adj: 'hfq' }),
    'hfq across the 4-for-1 split',
  );
});

test('adj=qfq on a market whose CSV uses YYYYMMDD dates and reordered columns', async () => {
  await check(
    '/hkstock/klines/hk00700?adj=qfq',
    expected('hkstock', 'hk00700', { limit: 100, adj: 'qfq' }),
    'hk00700 qfq',
  );
});

test('an empty adj_factor means 1 and empty price cells are JSON null under every adjustment', async () => {
  await check(
    '/ashare/klines/sh600007?adj=hfq',
    expected('ashare', 'sh600007', { limit: 100, adj: 'hfq' }),
    'sh600007 hfq with nulls',
  );
  await check(
    '/ashare/klines/sh600007?adj=qfq',
    expected('ashare', 'sh600007', { limit: 100, adj: 'qfq' }),
    'sh600007 qfq with nulls',
  );
});

test('adj=bfq is the stored prices', async () => {
  await check('/usstock/klines/usAAPL?adj=bfq&limit=4', expected('usstock', 'usAAPL', { limit: 4 }), 'bfq');
});

test('symbols match case-insensitively and are answered in canonical case', async () => {
  await check(
    '/ashare/klines/SH600001?limit=2',
    expected('ashare', 'sh600001', { limit: 2 }),
    'SH600001 finds sh600001',
  );
  await check('/usstock/klines/usaapl?limit=2', expected('usstock', 'usAAPL', { limit: 2 }), 'usaapl finds usAAPL');
});

test('a limit above the free plan’s 100 rows per call is clamped to 100 and shown', async () => {
  await check(
    '/ashare/klines/sh600001?limit=500',
    expected('ashare', 'sh600001', { limit: 100 }),
    'free: limit 500 → 100',
    server.keys.free,
  );
});

test('a limit above the pro plan’s 500 rows per call is clamped to 500 and shown', async () => {
  await check(
    '/ashare/klines/sh600001?limit=100000',
    expected('ashare', 'sh600001', { limit: 500 }),
    'pro: limit 100000 → 500',
  );
});

test('a limit within the plan is used as given', async () => {
  await check(
    '/ashare/klines/sh600001?limit=120',
    expected('ashare', 'sh600001', { limit: 120 }),
    'pro: limit 120 stays 120',
  );
});

test('a percent-encoded symbol in the path is decoded', async () => {
  await check(
    '/ashare/klines/sh%36%30%30001?limit=1',
    expected('ashare', 'sh600001', { limit: 1 }),
    'sh%36%30%30001 is sh600001',
  );
});

test('a 17-digit limit is still a limit above the plan: clamped, not rejected', async () => {
  await check(
    '/ashare/klines/sh600001?limit=10000000000000000&fields=c',
    expected('ashare', 'sh600001', { limit: 500, fields: ['close'] }),
    'limit 10^16 → 500 (a limit above rows per call is clamped, not rejected)',
  );
});

for (const adj of ['bfq', 'qfq', 'hfq'] as const) {
  test(`every row of every fixture symbol under adj=${adj} matches the CSV`, async () => {
    for (const market of FIXTURE_MARKETS) {
      for (const symbol of FIX[market].symbols) {
        await check(
          `/${market}/klines/${symbol}?adj=${adj}&fields=*`,
          expected(market, symbol, { limit: 100, adj }),
          `${market}/${symbol} ${adj}`,
        );
      }
    }
  });
}

/** Base days worth checking for one symbol: each factor change, the day before it, a weekend day inside the history, and past the end. */
function qfqBaseDays(market: string, symbol: string): string[] {
  const bars = FIX[market].bars.get(symbol) ?? [];
  const days = new Set<string>();
  for (let i = 1; i < bars.length; i++)
    if (bars[i].adj !== bars[i - 1].adj) days.add(bars[i].date), days.add(bars[i - 1].date);
  if (bars.length > 0) {
    days.add(bars[0].date);
    const saturday = new Date(`${bars[Math.floor(bars.length / 2)].date}T00:00:00Z`);
    while (saturday.getUTCDay() !== 6) saturday.setUTCDate(saturday.getUTCDate() + 1);
    days.add(saturday.toISOString().slice(0, 10));
    days.add('2099-12-31');
  }
  return [...days];
}

test('adj=qfq&qfq_base=D divides by the factor of the last stored day on or before D, for every fixture symbol', async () => {
  let changed = 0;
  for (const market of FIXTURE_MARKETS) {
    for (const symbol of FIX[market].symbols) {
      for (const day of qfqBaseDays(market, symbol)) {
        const exp = expected(market, symbol, { limit: 100, adj: 'qfq', qfqBase: day });
        if (JSON.stringify(exp) !== JSON.stringify(expected(market, symbol, { limit: 100, adj: 'qfq' }))) changed++;
        await check(
          `/${market}/klines/${symbol}?adj=qfq&qfq_base=${day}&fields=*`,
          exp,
          `${market}/${symbol} qfq_base=${day}`,
        );
      }
    }
  }
  assert.ok(
    changed >= 5,
    `only ${changed} of the checked bases differ from the latest day's: the splits were not exercised`,
  );
});

test('qfq_base pages and windows like any K-line query: the next link keeps it', async () => {
  const q = { end: '2025-02-16', offset: 1, limit: 3, adj: 'qfq' as const, qfqBase: '2024-12-31' };
  await check(
    '/ashare/klines/sh600001?end=2025-02-16&offset=1&limit=3&adj=qfq&qfq_base=2024-12-31',
    expected('ashare', 'sh600001', q),
    'a window under qfq_base',
  );
  const res = await server.get('/api/v1/ashare/klines/sh600001?limit=3&adj=qfq&qfq_base=2024-12-31');
  assert.match(String(res.headers.link), /qfq_base=2024-12-31/);
});

test("qfq_base with another adj, before the symbol's first row, malformed, or on the batch route is a 400 naming it", async () => {
  const cases: [string, string, string][] = [
    ['/ashare/klines/sh600001?qfq_base=2025-01-02', 'qfq_base', 'qfq_base applies to adj=qfq, not adj=bfq'],
    ['/ashare/klines/sh600001?adj=hfq&qfq_base=2025-01-02', 'qfq_base', 'qfq_base applies to adj=qfq, not adj=hfq'],
    ['/ashare/klines/sh600001?adj=qfq&qfq_base=2000-01-03', 'qfq_base', 'sh600001 has no row on or before 2000-01-03'],
    ['/ashare/klines/sh600001?adj=qfq&qfq_base=2025-02-30', 'qfq_base', ''],
    ['/ashare/klines?symbols=sh600001&adj=qfq&qfq_base=2025-01-02', 'qfq_base', ''],
  ];
  for (const [path, param, detail] of cases) {
    const res = await server.get(`/api/v1${path}`);
    assertProblem(res, 400, 'invalid_parameter', param, path);
    if (detail !== '') assert.equal(res.body.detail, `${param}: ${detail}`, path);
  }
});

test('qfq_base on a symbol listed without K-lines answers its empty window', async () => {
  await check(
    '/ashare/klines/sh600008?adj=qfq&qfq_base=2025-01-02',
    expected('ashare', 'sh600008', { limit: 100 }),
    'no rows to adjust',
  );
});
