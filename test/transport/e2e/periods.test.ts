// period=week|month|quarter|year on single and batch K-lines, against bars aggregated here from the fixture CSV.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ApiResponse, TestServer } from '../../helpers/api-server.js';
import { assertJsonExact, assertProblem, ok, startAnswerServer, startLimitServer } from '../../helpers/e2e.js';
import {
  adjusted,
  type Bar,
  dayOf,
  FIX,
  FIXTURE_MARKETS,
  KLINE_FIELDS,
  type KlineField,
  klineFieldNames,
} from '../../helpers/fixture-model.js';

let server: TestServer;
before(async () => (server = await startAnswerServer()));
after(() => server.close());

const api = (path: string): Promise<ApiResponse> => server.get(`/api/v1${path}`);

type Period = 'week' | 'month' | 'quarter' | 'year';
type Adj = 'bfq' | 'qfq' | 'hfq';
const PERIODS: readonly Period[] = ['week', 'month', 'quarter', 'year'];
const PRICES = ['open', 'high', 'low', 'close'] as const;

// ---- The aggregation, from the CSV text ----

/** The period a day belongs to: its ISO week's Monday, or its calendar month, quarter or year. */
function periodOf(date: string, period: Period): string {
  const year = date.slice(0, 4);
  const month = Number(date.slice(5, 7));
  switch (period) {
    case 'week': {
      const day = dayOf(date);
      const mondayBased = (new Date(day * 86_400_000).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
      return String(day - mondayBased);
    }
    case 'month':
      return date.slice(0, 7);
    case 'quarter':
      return `${year}Q${Math.floor((month - 1) / 3) + 1}`;
    case 'year':
      return year;
  }
}

/** The exact sum of decimal texts (`'28951191.50'`), empty cells skipped; null when every cell is empty. */
function sumDecimals(texts: readonly string[]): number | null {
  const cells = texts.filter((t) => t !== '');
  if (cells.length === 0) return null;
  const scale = Math.max(...cells.map((t) => (t.split('.')[1] ?? '').length));
  let total = 0n;
  for (const t of cells) {
    const [int, frac = ''] = t.split('.');
    total += BigInt(int + frac.padEnd(scale, '0'));
  }
  const digits = total.toString().padStart(scale + 1, '0');
  return Number(scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`);
}

/** One day's price as the daily answer gives it: stored (bfq), or adjusted and rounded to 4 decimals. */
function dailyPrice(b: Bar, f: (typeof PRICES)[number], adj: Adj, latest: string): number | null {
  if (b[f] === '') return null;
  if (adj === 'bfq') return Number(b[f]);
  return adjusted(b[f], b.adj, adj === 'qfq' ? latest : null);
}

const present = (xs: (number | null)[]): number[] => xs.filter((x): x is number => x !== null);

/** Every bar of one symbol's whole history, all fields, by date ascending. */
function periodBars(market: string, symbol: string, period: Period, adj: Adj): Record<string, unknown>[] {
  const days = FIX[market].bars.get(symbol) ?? [];
  const latest = days.length > 0 ? days[days.length - 1].adj : '1';
  const groups: Bar[][] = [];
  for (const b of days) {
    const last = groups.at(-1);
    if (last !== undefined && periodOf(last[0].date, period) === periodOf(b.date, period)) last.push(b);
    else groups.push([b]);
  }
  return groups.map((g) => {
    const price = (f: (typeof PRICES)[number]) => g.map((b) => dailyPrice(b, f, adj, latest));
    const highs = present(price('high'));
    const lows = present(price('low'));
    const end = g[g.length - 1];
    return {
      symbol,
      date: end.date,
      open: price('open')[0],
      high: highs.length > 0 ? Math.max(...highs) : null,
      low: lows.length > 0 ? Math.min(...lows) : null,
      close: price('close')[g.length - 1],
      volume: sumDecimals(g.map((b) => b.volume)),
      amount: sumDecimals(g.map((b) => b.amount)),
      adj_factor: Number(end.adj),
    };
  });
}

/** A row narrowed to symbol, date, `fields` (in fixed order) and adj_factor. */
function narrow(row: Record<string, unknown>, fields: readonly KlineField[]): Record<string, unknown> {
  return Object.fromEntries(klineFieldNames(fields).map((k) => [k, row[k]]));
}

interface Window {
  start?: string;
  end?: string;
  limit: number;
  offset?: number;
  adj?: Adj;
  fields?: readonly KlineField[];
}

/** The bars of a window, selected by their date: forward from `start`, else backward from `end` or the latest bar. */
function barWindow(
  market: string,
  symbol: string,
  period: Period,
  w: Window,
): { total: number; rows: Record<string, unknown>[] } {
  const all = periodBars(market, symbol, period, w.adj ?? 'bfq');
  const inRange = all.filter(
    (b) => (w.start === undefined || String(b.date) >= w.start) && (w.end === undefined || String(b.date) <= w.end),
  );
  const offset = w.offset ?? 0;
  let picked: Record<string, unknown>[];
  if (w.start !== undefined) picked = inRange.slice(offset, offset + w.limit);
  else {
    const to = Math.max(inRange.length - offset, 0);
    picked = inRange.slice(Math.max(to - w.limit, 0), to);
  }
  return { total: inRange.length, rows: picked.map((r) => narrow(r, w.fields ?? KLINE_FIELDS)) };
}

/** The single-symbol answer (default fields: all six). */
function single(market: string, symbol: string, period: Period, w: Window): Record<string, unknown> {
  const fields = w.fields ?? KLINE_FIELDS;
  const { total, rows } = barWindow(market, symbol, period, { ...w, fields });
  return {
    market,
    symbol,
    count: rows.length,
    total,
    offset: w.offset ?? 0,
    limit: w.limit,
    fields: klineFieldNames(fields),
    data: rows,
  };
}

/** The batch answer (default fields: close and volume); `limit` counts bars per symbol. */
function batch(market: string, symbols: string[], period: Period, w: Window): Record<string, unknown> {
  const fields = w.fields ?? (['close', 'volume'] as KlineField[]);
  const data: Record<string, unknown[]> = {};
  let count = 0;
  for (const s of symbols) {
    data[s] = barWindow(market, s, period, { ...w, fields }).rows;
    count += data[s].length;
  }
  return { market, count, limit: w.limit, offset: w.offset ?? 0, fields: klineFieldNames(fields), data };
}

async function check(path: string, exp: Record<string, unknown>, message: string): Promise<any> {
  const body = ok(await api(path), message);
  assertJsonExact(body, exp, message);
  return body;
}

/** The bar dated `date` in an answer's rows. */
function barOn(answer: Record<string, unknown>, date: string): Record<string, unknown> {
  const bar = (answer.data as Record<string, unknown>[]).find((r) => r.date === date);
  assert.ok(bar !== undefined, `a bar dated ${date}`);
  return bar;
}

/** The dates of an answer's bars. */
const datesOf = (answer: Record<string, unknown>): string[] =>
  (answer.data as Record<string, unknown>[]).map((r) => String(r.date));

// ---- Periods ----

test('period=week: ISO weeks; the week of 2024-12-30 crosses a month end and a year end and is one bar', async () => {
  const exp = single('ashare', 'sh600001', 'week', { start: '2024-12-01', end: '2025-01-31', limit: 100 });
  // Hand-computed from the CSV: Mon 2024-12-30, Tue 12-31, Thu 2025-01-02, Fri 01-03 (no row on 01-01).
  assert.deepStrictEqual(
    barOn(exp, '2025-01-03'),
    {
      symbol: 'sh600001',
      date: '2025-01-03',
      open: 10.55,
      high: 10.92,
      low: 10.29,
      close: 10.35,
      volume: 143989,
      amount: 152413025.5,
      adj_factor: 1.052631,
    },
    'the week bar: open of Monday 12-30, close of Friday 01-03, sums over four days',
  );
  assert.ok(!datesOf(exp).includes('2024-12-31'), 'no bar of its own for 2024-12-31');
  await check(
    '/ashare/klines/sh600001?period=week&start=2024-12-01&end=2025-01-31',
    exp,
    'sh600001 weeks, Dec 2024 – Jan 2025',
  );
});

test('period=month and period=year cut that week at the calendar boundaries', async () => {
  await check(
    '/ashare/klines/sh600001?period=month',
    single('ashare', 'sh600001', 'month', { limit: 100 }),
    'sh600001 months',
  );
  const years = single('ashare', 'sh600001', 'year', { limit: 100 });
  assert.deepStrictEqual(
    datesOf(years),
    ['2023-12-22', '2024-12-31', '2025-03-14'],
    'one bar per calendar year, dated its last trading day',
  );
  await check('/ashare/klines/sh600001?period=year', years, 'sh600001 years');
});

test('period=quarter: calendar quarters dated their last trading day; the unfinished latest quarter is included', async () => {
  const quarters = single('ashare', 'sh600001', 'quarter', { limit: 100 });
  assert.deepStrictEqual(
    datesOf(quarters),
    ['2023-12-22', '2024-03-15', '2024-06-14', '2024-09-13', '2024-12-31', '2025-03-14'],
    'Q4 2023 … Q1 2025 (data ends 2025-03-14, the quarter on 03-31): no bar for a quarter without rows',
  );
  await check('/ashare/klines/sh600001?period=quarter', quarters, 'sh600001 quarters');
  await check(
    '/hkstock/klines/hk00700?period=quarter&adj=qfq',
    single('hkstock', 'hk00700', 'quarter', { limit: 100, adj: 'qfq' }),
    'hk00700 (YYYYMMDD dates in its CSV): one unfinished quarter',
  );
});

test('a week with missing days aggregates only the days present; null cells are skipped in sums and extremes', async () => {
  await check(
    '/ashare/klines/sh600001?period=week&start=2024-03-01&end=2024-03-31',
    single('ashare', 'sh600001', 'week', { start: '2024-03-01', end: '2024-03-31', limit: 100 }),
    'sh600001: the week of 2024-03-11 has rows Wednesday to Friday only',
  );
  await check(
    '/ashare/klines/sz000005?period=week',
    single('ashare', 'sz000005', 'week', { limit: 100 }),
    'sz000005: suspended days (volume 0) inside its weeks',
  );
  const sh600007 = single('ashare', 'sh600007', 'week', { limit: 100, adj: 'hfq' });
  assert.deepStrictEqual(
    sh600007.data,
    [
      {
        symbol: 'sh600007',
        date: '2025-03-14',
        open: 4.4,
        high: 4.52,
        low: 4.36,
        close: 4.46,
        volume: 11900,
        amount: 5303000,
        adj_factor: 1,
      },
    ],
    'Wednesday to Friday; Friday’s empty volume and amount are skipped, its empty factor is 1',
  );
  await check('/ashare/klines/sh600007?period=week&adj=hfq', sh600007, 'sh600007: empty open, volume, amount, factor');
});

test('a split inside a month: qfq and hfq bars are built from the adjusted days', async () => {
  // sh600001: 2-for-1 on 2025-02-20 (1.078512 → 2.157024), a dividend on 2025-01-15 (1.052631 → 1.078512).
  const expectFeb: Record<Adj, Record<string, number>> = {
    bfq: { open: 10.99, high: 11.58, low: 5.52, close: 5.83 },
    qfq: { open: 5.495, high: 5.98, low: 5.445, close: 5.83 },
    hfq: { open: 11.8528, high: 12.899, low: 11.745, close: 12.5754 },
  };
  for (const adj of ['bfq', 'qfq', 'hfq'] as const) {
    const months = single('ashare', 'sh600001', 'month', { start: '2025-01-01', limit: 100, adj });
    const feb = barOn(months, '2025-02-28');
    assert.deepStrictEqual(
      { open: feb.open, high: feb.high, low: feb.low, close: feb.close },
      expectFeb[adj],
      `February ${adj}, computed by hand from the CSV`,
    );
    assert.deepStrictEqual([feb.volume, feb.amount, feb.adj_factor], [682745, 633503516, 2.157024], 'never adjusted');
    await check(`/ashare/klines/sh600001?period=month&adj=${adj}&start=2025-01-01`, months, `2025 months ${adj}`);
  }
  for (const adj of ['qfq', 'hfq'] as const) {
    // usAAPL: 4-for-1 on Monday 2025-03-10, inside March but on a week boundary; hk00700: a factor step on Wednesday 2025-03-12.
    for (const period of ['week', 'month'] as const)
      await check(
        `/usstock/klines/usAAPL?period=${period}&adj=${adj}`,
        single('usstock', 'usAAPL', period, { limit: 100, adj }),
        `usAAPL ${period} ${adj}`,
      );
    await check(
      `/hkstock/klines/hk00700?period=week&adj=${adj}`,
      single('hkstock', 'hk00700', 'week', { limit: 100, adj }),
      `hk00700 week ${adj}`,
    );
  }
});

test('every symbol of every fixture market, under every period and adjustment, matches the aggregation', async () => {
  for (const market of FIXTURE_MARKETS)
    for (const symbol of FIX[market].symbols)
      for (const period of PERIODS)
        for (const adj of ['bfq', 'qfq', 'hfq'] as const)
          await check(
            `/${market}/klines/${symbol}?period=${period}&adj=${adj}&fields=*`,
            single(market, symbol, period, { limit: 100, adj }),
            `${market}/${symbol} ${period} ${adj}`,
          );
});

// ---- Windows ----

test('start, end, limit, offset and total count bars selected by their date', async () => {
  const cases: [query: string, w: Window][] = [
    ['period=week&limit=3', { limit: 3 }],
    ['period=week&limit=3&offset=2', { limit: 3, offset: 2 }],
    ['period=week&start=2025-01-01&limit=4&offset=1', { start: '2025-01-01', limit: 4, offset: 1 }],
    ['period=week&end=2025-02-16&limit=2&offset=1', { end: '2025-02-16', limit: 2, offset: 1 }],
    [
      'period=month&start=2024-06-01&end=2025-01-31&limit=3&offset=2',
      { start: '2024-06-01', end: '2025-01-31', limit: 3, offset: 2 },
    ],
    ['period=month&offset=50', { limit: 100, offset: 50 }],
    ['period=quarter&end=2024-12-31&fields=c,v', { end: '2024-12-31', limit: 100, fields: ['close', 'volume'] }],
    [
      'period=year&start=2024-01-01&adj=qfq&fields=o,h',
      { start: '2024-01-01', limit: 100, adj: 'qfq', fields: ['open', 'high'] },
    ],
  ];
  for (const [query, w] of cases) {
    const period = /period=(\w+)/.exec(query)![1] as Period;
    await check(`/ashare/klines/sh600001?${query}`, single('ashare', 'sh600001', period, w), query);
  }
});

test('a start inside a week does not cut the week: its bar keeps all its days', async () => {
  const week = single('ashare', 'sh600001', 'week', { start: '2025-01-08', limit: 1 });
  const bar = barOn(week, '2025-01-10');
  assert.deepStrictEqual(
    [bar.open, bar.volume],
    [10.4, 40203 + 21439 + 31201 + 37720 + 42352],
    "Monday 2025-01-06's open and all five days' volume",
  );
  await check('/ashare/klines/sh600001?period=week&start=2025-01-08&limit=1', week, 'the week asked from Wednesday');
  await check(
    '/ashare/klines/sh600001?period=month&start=2025-02-20&limit=2&adj=qfq',
    single('ashare', 'sh600001', 'month', { start: '2025-02-20', limit: 2, adj: 'qfq' }),
    'February from its 20th is still all of February',
  );
});

test('an end inside a week leaves out that week, whose bar is dated after it (bars are selected by their date, never cut)', async () => {
  const weeks = single('ashare', 'sh600001', 'week', { end: '2025-01-08', limit: 2 });
  assert.deepStrictEqual(datesOf(weeks), ['2024-12-27', '2025-01-03'], 'the last bar is the week before');
  await check(
    '/ashare/klines/sh600001?period=week&end=2025-01-08&limit=2',
    weeks,
    'the week of 2025-01-06 is left out',
  );
});

test('Link rel="next" keeps the period: the pages together are every bar once', async () => {
  const all = single('ashare', 'sh600001', 'week', { limit: 100, fields: ['close'] }).data as unknown[];
  const pages: any[] = [];
  for (let next: string | null = '/api/v1/ashare/klines/sh600001?period=week&fields=c&limit=4'; next !== null; ) {
    const res = await server.get(next);
    pages.push(ok(res, next));
    const link = res.headers.link as string | undefined;
    next = link === undefined ? null : /^<([^>]+)>; rel="next"$/.exec(link)![1];
    assert.ok(pages.length <= 100, 'the walk ends');
  }
  assert.deepStrictEqual(
    pages.reverse().flatMap((p) => p.data),
    all,
    'backward pages of week bars, reversed, are the whole history',
  );
});

// ---- Batch ----

test('batch: every symbol aggregated, limit and offset count bars per symbol', async () => {
  const symbols = ['sh600001', 'sz000003', 'sh600007', 'sz000005'];
  await check(
    `/ashare/klines?symbols=${symbols.join(',')}&period=week&fields=*&adj=qfq`,
    batch('ashare', symbols, 'week', { limit: 100, adj: 'qfq', fields: KLINE_FIELDS }),
    'weeks, qfq',
  );
  await check(
    `/ashare/klines?symbols=${symbols.join(',')}&period=month&limit=2&offset=1`,
    batch('ashare', symbols, 'month', { limit: 2, offset: 1 }),
    'months, default fields, two per symbol',
  );
  await check(
    '/ashare/klines?symbols=sh600001,sz000004&period=quarter&start=2024-05-01&limit=2&adj=hfq&fields=o,h,l,c',
    batch('ashare', ['sh600001', 'sz000004'], 'quarter', {
      start: '2024-05-01',
      limit: 2,
      adj: 'hfq',
      fields: ['open', 'high', 'low', 'close'],
    }),
    'quarters from a start, hfq',
  );
  await check(
    '/usstock/klines?symbols=usAAPL,usMSFT&period=year&adj=hfq&fields=*',
    batch('usstock', ['usAAPL', 'usMSFT'], 'year', { limit: 100, adj: 'hfq', fields: KLINE_FIELDS }),
    'years across a 4-for-1 split, hfq',
  );
});

// ---- period=day, and what is refused ----

test('period=day is the same answer as no period, single and batch', async () => {
  for (const [plain, withDay] of [
    ['/ashare/klines/sh600001?adj=qfq&limit=20', '/ashare/klines/sh600001?adj=qfq&limit=20&period=day'],
    ['/hkstock/klines/hk00700?start=2025-03-06', '/hkstock/klines/hk00700?period=day&start=2025-03-06'],
    ['/ashare/klines?symbols=sh600001,sz000003&limit=3', '/ashare/klines?symbols=sh600001,sz000003&limit=3&period=day'],
    ['/ashare/klines?symbols=sh600001&date=2025-03-13', '/ashare/klines?symbols=sh600001&date=2025-03-13&period=day'],
  ]) {
    const a = ok(await api(plain), plain);
    assertJsonExact(ok(await api(withDay), withDay), a, `${withDay} equals ${plain}`);
  }
});

test('an unknown period is 400 invalid_parameter naming period', async () => {
  for (const path of [
    '/ashare/klines/sh600001?period=hour',
    '/ashare/klines/sh600001?period=weekly',
    '/ashare/klines/sh600001?period=',
    '/ashare/klines?symbols=sh600001&period=2w',
  ])
    assertProblem(await api(path), 400, 'invalid_parameter', 'period', path);
});

test('a period other than day with batch date=D, or with qfq_base, is 400 invalid_parameter', async () => {
  // The rule does not say which parameter the problem names: `period` or the one it collides with are both read as right.
  const cases: [path: string, names: string[]][] = [
    ['/ashare/klines?symbols=sh600001&period=week&date=2025-03-14', ['period', 'date']],
    ['/ashare/klines?symbols=sh600001&period=month&date=2025-03-14', ['period', 'date']],
    ['/ashare/klines/sh600001?period=week&adj=qfq&qfq_base=2025-01-02', ['period', 'qfq_base']],
    ['/ashare/klines/sh600001?period=year&adj=qfq&qfq_base=2025-03-14', ['period', 'qfq_base']],
  ];
  for (const [path, names] of cases) {
    const res = await api(path);
    assertProblem(res, 400, 'invalid_parameter', undefined, path);
    assert.ok(names.includes(res.body.param), `${path}: param is one of ${names.join(', ')} (got ${res.body.param})`);
  }
});

// ---- Charges ----

test('a period answer charges the bars it returns', async (t) => {
  const { server: s } = await startLimitServer(t);
  const cases: [path: string, bars: number][] = [
    ['/ashare/klines/sh600001?period=week', periodBars('ashare', 'sh600001', 'week', 'bfq').length],
    ['/ashare/klines/sh600001?period=month&limit=3', 3],
    [
      '/ashare/klines?symbols=sh600001,sz000003,sh600007&period=month',
      ['sh600001', 'sz000003', 'sh600007'].reduce((n, x) => n + periodBars('ashare', x, 'month', 'bfq').length, 0),
    ],
    ['/usstock/klines?symbols=usAAPL,usMSFT&period=year', 2],
  ];
  let used = 0;
  for (const [path, bars] of cases) {
    const res = await s.get(`/api/v1${path}`, { key: s.keys.pro });
    assert.equal(ok(res, path).count, bars, `${path}: ${bars} bars`);
    used += bars;
    assert.equal(res.headers['x-quota-remaining'], String(200_000 - used), `${path}: charged ${bars} rows, not days`);
  }
});
