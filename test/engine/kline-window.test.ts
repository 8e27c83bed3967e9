// K-line windows, bfq/qfq/hfq adjustment (qfq by the latest stored adj_factor, rounded to 4 decimals) and field projection, on the fixture's adj-step symbol, against its CSV text.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PRICE_FIELDS } from '../../engine/columns.js';
import type { Dataset, MarketData } from '../../engine/dataset/dataset.js';
import { adjustedSlice } from '../../engine/kernels/adjust.js';
import { klineWindow } from '../../engine/kernels/kline-window.js';
import { projectKlineFields } from '../../engine/kernels/project-fields.js';
import { storeEdition } from '../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../loaders/edition/stored-editions.js';

const FIXTURE = fileURLToPath(new URL('../../../snapshots/fixtures/derived/', import.meta.url));
/** The fixture symbol with 85 rows over 15 months and adj_factor steps 1 → 1.052631 → 1.078512 → 2.157024. */
const SYMBOL = 'sh600001';
const PRICES = ['open', 'high', 'low', 'close'] as const;
type Price = (typeof PRICES)[number];

// ---- The fixture's rows of SYMBOL, from the CSV text ----

interface Bar {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  amount: number;
  adj: number;
}

async function readBars(symbol: string): Promise<Bar[]> {
  const [head, ...lines] = (await readFile(join(FIXTURE, 'ashare', 'klines.csv'), 'utf8')).trim().split('\n');
  const names = head.split(',');
  const at = (name: string): number => names.indexOf(name);
  return lines
    .map((line) => line.split(','))
    .filter((cells) => cells[at('symbol')] === symbol)
    .map((cells) => ({
      date: cells[at('date')],
      open: Number(cells[at('open')]),
      high: Number(cells[at('high')]),
      low: Number(cells[at('low')]),
      close: Number(cells[at('close')]),
      volume: Number(cells[at('volume')]),
      amount: Number(cells[at('amount')]),
      adj: cells[at('adj_factor')] === '' ? 1 : Number(cells[at('adj_factor')]),
    }))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** Days since 1970-01-01 and back, via Date (independent of engine/calendar). */
const dayOf = (iso: string): number => Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10)) / 86_400_000;
const isoOf = (day: number): string => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** Half away from zero at 4 decimals, on the decimal expansion cut at 10 places. */
function round4(x: number): number {
  const [int, frac] = Math.abs(x).toFixed(10).split('.');
  let scaled = BigInt(int + frac.slice(0, 4));
  if (frac[4] >= '5') scaled += 1n;
  const value = Number(`${scaled / 10000n}.${String(scaled % 10000n).padStart(4, '0')}`);
  return x < 0 ? -value : value;
}

// ---- the window and adjustment rules, implemented independently ----

interface Query {
  start: string | null;
  end: string | null;
  offset: number;
  limit: number;
}

/** Dates of the answered rows (ascending) and the rows in the date range before offset/limit. */
function expectedWindow(bars: Bar[], q: Query): { dates: string[]; total: number } {
  const inRange = bars.filter((b) => (q.start === null || b.date >= q.start) && (q.end === null || b.date <= q.end));
  let rows: Bar[];
  if (q.start !== null) {
    rows = inRange.slice(q.offset, q.offset + q.limit); // anchored at start: offset skips forward
  } else {
    const stop = Math.max(0, inRange.length - q.offset); // anchored at end/latest: offset skips backward
    rows = inRange.slice(Math.max(0, stop - q.limit), stop);
  }
  return { dates: rows.map((b) => b.date), total: inRange.length };
}

// ---- Loading ----

let stateDir = '';
let dataset: Dataset;
let bars: Bar[] = [];

before(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'mdq-kwindow-'));
  await storeEdition(FIXTURE, stateDir);
  const opened = await openCurrentDataset(stateDir);
  assert.ok(opened !== null, 'the stored fixture opens as a Dataset');
  dataset = opened;
  bars = await readBars(SYMBOL);
});

after(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

function rowsOf(symbol: string): { md: MarketData; from: number; to: number } {
  const md = dataset.markets.ashare;
  const i = md.symbols.find(symbol);
  assert.notEqual(i, -1, `${symbol} is in the Dataset`);
  return { md, from: md.klines.offsets[i], to: md.klines.offsets[i + 1] };
}

/** Runs the kernel and answers the window's dates (in row order) and total. */
function window(q: Query, symbol = SYMBOL): { dates: string[]; total: number; from: number; to: number } {
  const { md, from, to } = rowsOf(symbol);
  const w = klineWindow(md.klines.date, from, to, {
    start: q.start === null ? null : dayOf(q.start),
    end: q.end === null ? null : dayOf(q.end),
    offset: q.offset,
    limit: q.limit,
  });
  assert.ok(
    w.from >= from && w.to <= to && w.from <= w.to,
    `the window [${w.from}, ${w.to}) stays inside the symbol's rows [${from}, ${to})`,
  );
  const dates: string[] = [];
  for (let row = w.from; row < w.to; row++) dates.push(isoOf(md.klines.date[row]));
  return { dates, total: w.total, from: w.from, to: w.to };
}

/** Asserts the kernel's window for `q` equals the expectation, rows ascending. */
function checkWindow(q: Query, rule: string, symbol = SYMBOL, data = bars): string[] {
  const got = window(q, symbol);
  const want = expectedWindow(data, q);
  const label = `${symbol} ${JSON.stringify(q)}`;
  assert.deepEqual(got.dates, want.dates, `${label}: ${rule}`);
  assert.equal(got.total, want.total, `${label}: total counts the rows of the date range before offset/limit`);
  assert.ok(
    got.dates.every((d, k) => k === 0 || got.dates[k - 1] < d),
    `${label}: rows ascending`,
  );
  return got.dates;
}

const q = (start: string | null, end: string | null, offset: number, limit: number): Query => ({
  start,
  end,
  offset,
  limit,
});

// ---- Windows ----

test('start only: the window opens at the first row on or after start and runs forward', () => {
  const dates = checkWindow(q('2025-01-06', null, 0, 5), 'the first five rows from start');
  assert.deepEqual(
    dates,
    ['2025-01-06', '2025-01-07', '2025-01-08', '2025-01-09', '2025-01-10'],
    'five trading days from 2025-01-06',
  );
  assert.equal(window(q('2025-01-06', null, 0, 5)).total, 50, 'total: every row from 2025-01-06 to the latest day');
});

test('start with offset: offset skips forward from start', () => {
  const dates = checkWindow(q('2025-01-06', null, 3, 4), 'offset 3 skips the first three rows from start');
  assert.deepEqual(dates, ['2025-01-09', '2025-01-10', '2025-01-13', '2025-01-14'], 'rows 4–7 from 2025-01-06');
});

test('end only: the window closes at the last row on or before end', () => {
  const dates = checkWindow(q(null, '2025-01-15', 0, 5), 'the five rows up to end');
  assert.deepEqual(
    dates,
    ['2025-01-09', '2025-01-10', '2025-01-13', '2025-01-14', '2025-01-15'],
    'five trading days ending 2025-01-15',
  );
});

test('end with offset: offset skips backward from end', () => {
  const dates = checkWindow(q(null, '2025-01-15', 2, 3), 'offset 2 skips the two rows nearest end');
  assert.deepEqual(dates, ['2025-01-09', '2025-01-10', '2025-01-13'], 'three rows ending two rows before 2025-01-15');
});

test('start and end: every row of the range, ascending', () => {
  const dates = checkWindow(q('2024-12-30', '2025-01-10', 0, 100), 'all rows between start and end inclusive');
  assert.deepEqual(
    dates,
    [
      '2024-12-30',
      '2024-12-31',
      '2025-01-02',
      '2025-01-03',
      '2025-01-06',
      '2025-01-07',
      '2025-01-08',
      '2025-01-09',
      '2025-01-10',
    ],
    'nine rows; 2025-01-01 has none',
  );
});

test('start and end with offset and limit: offset skips forward from start inside the range', () => {
  const dates = checkWindow(q('2024-12-30', '2025-01-10', 2, 3), 'rows 3–5 of the range');
  assert.deepEqual(dates, ['2025-01-02', '2025-01-03', '2025-01-06'], 'the range minus two rows, three of them');
  assert.equal(
    window(q('2024-12-30', '2025-01-10', 2, 3)).total,
    9,
    'total is the whole range, before offset and limit',
  );
});

test('neither start nor end: limit alone gives the most recent rows', () => {
  const dates = checkWindow(q(null, null, 0, 5), 'the five most recent rows');
  assert.deepEqual(
    dates,
    ['2025-03-10', '2025-03-11', '2025-03-12', '2025-03-13', '2025-03-14'],
    'the last five trading days',
  );
  assert.equal(window(q(null, null, 0, 5)).total, bars.length, 'total: all 85 rows of the symbol');
});

test('neither start nor end, with offset: offset skips backward from the latest row', () => {
  checkWindow(q(null, null, 10, 5), 'five rows ending ten rows before the latest');
});

test('an offset beyond the range answers no rows and the full total', () => {
  checkWindow(q('2024-12-30', '2025-01-10', 10, 5), 'start+end: offset past the nine rows');
  checkWindow(q('2025-03-10', null, 1000, 5), 'start only: offset past the end');
  checkWindow(q(null, '2025-01-10', 1000, 5), 'end only: offset past the first row');
  checkWindow(q(null, null, 1000, 5), 'neither: offset past all rows');
  assert.deepEqual(window(q(null, null, 85, 5)).dates, [], 'offset equal to the row count leaves nothing');
});

test('limit 1 answers one row: the first from start, or the last up to end or the latest', () => {
  assert.deepEqual(
    checkWindow(q('2025-01-04', null, 0, 1), 'one row from start'),
    ['2025-01-06'],
    'first trading day on or after start',
  );
  assert.deepEqual(
    checkWindow(q(null, '2025-01-12', 0, 1), 'one row up to end'),
    ['2025-01-10'],
    'last trading day on or before end',
  );
  assert.deepEqual(checkWindow(q(null, null, 0, 1), 'one row, the latest'), ['2025-03-14'], 'the latest stored day');
});

test('a limit larger than the range answers the whole range', () => {
  assert.equal(checkWindow(q('2024-12-30', '2025-01-10', 0, 1000), 'the whole range').length, 9, 'nine rows');
  assert.equal(checkWindow(q(null, null, 0, 1000), 'every row').length, 85, 'all 85 rows');
  assert.equal(
    checkWindow(q('2020-01-01', null, 0, 1000), 'every row from a start before the first').length,
    85,
    'all 85 rows',
  );
});

test('start and end on a weekend snap to the trading days inside the range', () => {
  // 2025-01-04 is a Saturday, 2025-01-12 a Sunday.
  assert.deepEqual(
    checkWindow(q('2025-01-04', '2025-01-12', 0, 100), 'weekend bounds'),
    ['2025-01-06', '2025-01-07', '2025-01-08', '2025-01-09', '2025-01-10'],
    'Monday to Friday',
  );
  assert.deepEqual(
    checkWindow(q('2025-01-04', null, 0, 2), 'weekend start'),
    ['2025-01-06', '2025-01-07'],
    'from the Monday after',
  );
  assert.deepEqual(
    checkWindow(q(null, '2025-01-12', 0, 2), 'weekend end'),
    ['2025-01-09', '2025-01-10'],
    'up to the Friday before',
  );
});

test('a range holding no rows answers nothing with total 0', () => {
  for (const range of [
    q('2024-07-01', '2024-08-31', 0, 100), // between two sparse rows
    q('2020-01-01', '2020-12-31', 0, 100), // before the first row
    q('2025-03-15', null, 0, 100), // after the latest row
    q(null, '2023-01-01', 0, 100), // end before the first row
    q('2025-01-04', '2025-01-05', 0, 100), // one weekend
  ]) {
    const got = window(range);
    assert.deepEqual(got.dates, [], `${JSON.stringify(range)}: no rows`);
    assert.equal(got.total, 0, `${JSON.stringify(range)}: total 0`);
  }
});

test('the window never reaches into a neighbouring symbol’s rows', async () => {
  const sz000003 = await readBars('sz000003');
  for (const range of [
    q(null, null, 0, 1000),
    q('2000-01-01', '2099-12-31', 0, 1000),
    q('2000-01-01', null, 2, 1000),
    q(null, '2099-12-31', 1, 2),
  ]) {
    checkWindow(range, 'only sz000003’s own rows', 'sz000003', sz000003);
  }
});

// ---- Adjustment ----

/** The engine's price column of SYMBOL over its whole history, adjusted or as stored. */
function enginePrices(column: Price, mode: 'bfq' | 'qfq' | 'hfq', from?: number, to?: number): number[] {
  const rows = rowsOf(SYMBOL);
  const a = from ?? rows.from;
  const b = to ?? rows.to;
  const k = rows.md.klines;
  if (mode === 'bfq') return Array.from(k[column].subarray(a, b));
  return Array.from(adjustedSlice(k[column], k.adj_factor, a, b, mode, rows.to - 1));
}

/** Guards exact comparison: the unrounded values must not sit on a rounding tie. */
function clearOfTies(values: number[], what: string): void {
  for (const x of values)
    assert.ok(
      Math.abs(((Math.abs(x) * 1e4) % 1) - 0.5) > 1e-6,
      `${what}: ${x} sits on a rounding tie; change the fixture`,
    );
}

test('bfq answers prices, volume, amount and adj_factor as stored', () => {
  const { md, from, to } = rowsOf(SYMBOL);
  for (const column of [...PRICES, 'volume', 'amount'] as const) {
    assert.deepEqual(
      Array.from(md.klines[column].subarray(from, to)),
      bars.map((b) => b[column]),
      `${column}: the CSV values, ascending by date`,
    );
  }
  assert.deepEqual(
    Array.from(md.klines.adj_factor.subarray(from, to)),
    bars.map((b) => b.adj),
    'adj_factor: the CSV values',
  );
  assert.equal(
    new Set(bars.slice(-60).map((b) => b.adj)).size,
    3,
    'the fixture has two adj_factor steps (a dividend and a split) inside the last 60 rows',
  );
});

test('qfq = price × adj_factor / adj_factor of the latest stored day, rounded to 4 decimals', () => {
  const latest = bars[bars.length - 1].adj;
  for (const column of PRICES) {
    const raw = bars.map((b) => (b[column] * b.adj) / latest);
    clearOfTies(raw, `qfq ${column}`);
    assert.deepEqual(
      enginePrices(column, 'qfq'),
      raw.map(round4),
      `qfq ${column}: price × adj / ${latest}, rounded half away from zero`,
    );
  }
  const close = bars.map((b) => (b.close * b.adj) / latest);
  assert.ok(
    close.some((x) => round4(x) !== x),
    'the fixture has qfq prices that need rounding',
  );
});

test('qfq of a window that ends before the latest day still divides by the latest day’s adj_factor', () => {
  const w = window(q('2024-12-30', '2025-01-10', 0, 100));
  const inWindow = bars.filter((b) => b.date >= '2024-12-30' && b.date <= '2025-01-10');
  const latest = bars[bars.length - 1].adj;
  for (const column of PRICES) {
    const want = inWindow.map((b) => round4((b[column] * b.adj) / latest));
    assert.deepEqual(
      enginePrices(column, 'qfq', w.from, w.to),
      want,
      `qfq ${column} of 2024-12-30…2025-01-10: divided by 2.157024 (the latest day), not 1.052631 (the window's last day)`,
    );
    assert.notDeepEqual(
      want,
      inWindow.map((b) => round4((b[column] * b.adj) / inWindow[inWindow.length - 1].adj)),
      'the two bases differ in the fixture',
    );
  }
});

test('hfq = price × adj_factor, rounded to 4 decimals', () => {
  for (const column of PRICES) {
    const raw = bars.map((b) => b[column] * b.adj);
    clearOfTies(raw, `hfq ${column}`);
    assert.deepEqual(
      enginePrices(column, 'hfq'),
      raw.map(round4),
      `hfq ${column}: price × adj, rounded half away from zero`,
    );
  }
  assert.ok(
    bars.some((b) => round4(b.close * b.adj) !== b.close * b.adj),
    'the fixture has hfq prices that need rounding',
  );
});

test('qfq on the latest day equals bfq exactly, for every fixture symbol', () => {
  for (const market of ['ashare', 'hkstock', 'usstock'] as const) {
    const md = dataset.markets[market];
    for (let i = 0; i < md.symbols.size; i++) {
      const last = md.klines.offsets[i + 1] - 1;
      if (last < md.klines.offsets[i]) continue; // no K-lines
      for (const column of PRICES) {
        const qfq = adjustedSlice(md.klines[column], md.klines.adj_factor, last, last + 1, 'qfq', last)[0];
        assert.ok(
          Object.is(qfq, md.klines[column][last]),
          `${market}/${md.symbols.codes[i]} ${column}: qfq ${qfq} = bfq ${md.klines[column][last]} on the latest day`,
        );
      }
    }
  }
});

test('volume and amount are never adjusted: only open, high, low and close are price fields', () => {
  assert.deepEqual(
    [...PRICE_FIELDS].sort(),
    ['close', 'high', 'low', 'open'],
    'the adjusted fields are exactly the four prices',
  );
});

// ---- Field projection ----

test('short codes and full names, in any order, answer in the order open, high, low, close, volume, amount', () => {
  assert.deepEqual(
    projectKlineFields(['c', 'open', 'v', 'h']),
    { ok: true, fields: ['open', 'high', 'close', 'volume'] },
    'mixed codes and names, fixed order',
  );
  assert.deepEqual(projectKlineFields(['a', 'l']), { ok: true, fields: ['low', 'amount'] }, 'short codes only');
  assert.deepEqual(
    projectKlineFields(['amount', 'a', 'low', 'l']),
    { ok: true, fields: ['low', 'amount'] },
    'a column named twice appears once',
  );
});

test('`*` selects all six fields', () => {
  assert.deepEqual(
    projectKlineFields(['*']),
    { ok: true, fields: ['open', 'high', 'low', 'close', 'volume', 'amount'] },
    '* = all, in the fixed order',
  );
});

test('symbol, date and adj_factor are accepted and add no selectable field', () => {
  assert.deepEqual(
    projectKlineFields(['adj_factor', 'date', 'symbol', 'c']),
    { ok: true, fields: ['close'] },
    'always-returned columns are not errors',
  );
});

test('an unknown item is reported by name', () => {
  assert.deepEqual(projectKlineFields(['o', 'foo', 'c']), { ok: false, unknown: 'foo' }, "'foo' names no K-line field");
  assert.deepEqual(
    projectKlineFields(['turnover_rate']),
    { ok: false, unknown: 'turnover_rate' },
    'a snapshot column is not a K-line field',
  );
});

test('an unknown item is reported even when `*` is also given', () => {
  assert.deepEqual(
    projectKlineFields(['*', 'foo']),
    { ok: false, unknown: 'foo' },
    "'*,foo' is an invalid fields value (400), whatever the order",
  );
  assert.deepEqual(
    projectKlineFields(['foo', '*']),
    { ok: false, unknown: 'foo' },
    "'foo,*' is an invalid fields value (400)",
  );
});
