// Every derived detail-snapshot column (day T's row, values from the history forward-adjusted to T) on the hand-made fixture, against values computed here from its CSV text.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Dataset, MarketData } from '../../engine/dataset/dataset.js';
import { NO_DATE } from '../../engine/kernels/derive-snapshot.js';
import { storeEdition } from '../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../loaders/edition/stored-editions.js';

const FIXTURE = fileURLToPath(new URL('../../../snapshots/fixtures/derived/', import.meta.url));
const MARKETS = ['ashare', 'hkstock', 'usstock'] as const;
type FixtureMarket = (typeof MARKETS)[number];

// ---- The spec's snapshot table, written out here rather than imported from the engine ----

/** Numeric columns of the spec's detail snapshot table, in its order. */
const NUMERIC_COLUMNS = [
  'open',
  'high',
  'low',
  'close',
  'pre_close',
  'avg_price',
  'volume',
  'amount',
  'change',
  'change_percent',
  'inner_volume',
  'outer_volume',
  'turnover_rate',
  'volume_ratio',
  'range_pct',
  'pe_ratio',
  'pe_fwd',
  'pe_lyr',
  'pb_ratio',
  'dividend_ratio_ttm',
  'dividend_ttm',
  'wb_ratio',
  'eps_ttm',
  'total_market_cap',
  'circulating_market_cap',
  'total_shares',
  'float_shares',
  'high_52week',
  'low_52week',
  'chg_5d',
  'chg_10d',
  'chg_20d',
  'chg_60d',
  'chg_ytd',
  'ma5',
  'ma10',
  'ma20',
  'ma60',
  'close_vs_ma20',
  'close_vs_52w_high',
];
/** The detail columns neither from the K-lines, derived nor from symbols.csv: read from the latest fundamentals.csv row. */
const FUNDAMENTAL_COLUMNS = [
  'avg_price',
  'inner_volume',
  'outer_volume',
  'turnover_rate',
  'pe_ratio',
  'pe_fwd',
  'pe_lyr',
  'pb_ratio',
  'dividend_ratio_ttm',
  'dividend_ttm',
  'wb_ratio',
  'eps_ttm',
  'total_market_cap',
  'circulating_market_cap',
  'total_shares',
  'float_shares',
];
/** Columns the spec ties to one market; elsewhere they are null. */
const ONLY_IN: Record<string, FixtureMarket> = {
  inner_volume: 'ashare',
  outer_volume: 'ashare',
  wb_ratio: 'hkstock',
  eps_ttm: 'usstock',
};
const CAP_COLUMNS = ['total_market_cap', 'circulating_market_cap'];
/** The fixture symbol whose fundamentals hold rounding ties; only the rounding test reads them. */
const ROUNDING_SYMBOL = 'sh600009';

// ---- The fixture, read with a plain split (it has no quotes or commas in cells) ----

type Row = Record<string, string>;
interface Bar {
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
  amount: number | null;
  adj: number;
}
interface FixtureData {
  bars: Map<string, Bar[]>;
  labels: Map<string, Row>;
  labelColumns: string[];
  fundamentals: Map<string, Row[]>;
  /** Every symbol named by any of the market's files. */
  symbols: string[];
}

function parseCsv(text: string): { columns: string[]; rows: Row[] } {
  const [head, ...lines] = text.trim().split('\n');
  const columns = head.split(',');
  const rows = lines.map((line) => {
    const cells = line.split(',');
    return Object.fromEntries(columns.map((name, i) => [name, cells[i] ?? '']));
  });
  return { columns, rows };
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

/** `YYYYMMDD` or `YYYY-MM-DD` → `YYYY-MM-DD`. */
const iso = (text: string): string =>
  text.length === 8 ? `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6)}` : text;
const num = (text: string | undefined): number | null => (text === undefined || text === '' ? null : Number(text));
/** Whole days since 1970-01-01 of an ISO date, via Date.UTC (independent of engine/calendar). */
const dayOf = (isoDate: string): number =>
  Date.UTC(+isoDate.slice(0, 4), +isoDate.slice(5, 7) - 1, +isoDate.slice(8, 10)) / 86_400_000;

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    if (!out.has(k)) out.set(k, []);
    out.get(k)!.push(row);
  }
  return out;
}

async function readFixtureMarket(market: FixtureMarket): Promise<FixtureData> {
  const klines = parseCsv(await readFile(join(FIXTURE, market, 'klines.csv'), 'utf8')).rows;
  const bars = groupBy(
    klines.map((r) => ({
      symbol: r.symbol,
      bar: {
        date: iso(r.date),
        open: num(r.open),
        high: num(r.high),
        low: num(r.low),
        close: num(r.close),
        volume: num(r.volume),
        amount: num(r.amount),
        adj: num(r.adj_factor) ?? 1, // an empty or absent adj_factor means 1
      } satisfies Bar,
    })),
    (x) => x.symbol,
  );
  const sorted = new Map(
    [...bars].map(([symbol, xs]) => [symbol, xs.map((x) => x.bar).sort((a, b) => (a.date < b.date ? -1 : 1))]),
  );
  const symbolsText = await readOptional(join(FIXTURE, market, 'symbols.csv'));
  const symbolsCsv = symbolsText === null ? { columns: [], rows: [] } : parseCsv(symbolsText);
  const fundamentalsText = await readOptional(join(FIXTURE, market, 'fundamentals.csv'));
  const fundamentals = groupBy(fundamentalsText === null ? [] : parseCsv(fundamentalsText).rows, (r) => r.symbol);
  const labels = new Map(symbolsCsv.rows.map((r) => [r.symbol, r]));
  const symbols = [...new Set([...labels.keys(), ...sorted.keys(), ...fundamentals.keys()])].sort();
  return { bars: sorted, labels, labelColumns: symbolsCsv.columns, fundamentals, symbols };
}

// ---- the detail columns' rules, implemented independently ----

/** null when any input is null or the result is not finite (a division by zero is no value). */
function calc(args: (number | null)[], fn: (...x: number[]) => number): number | null {
  if (args.some((x) => x === null)) return null;
  const value = fn(...(args as number[]));
  return Number.isFinite(value) ? value : null;
}

function mean(values: (number | null)[]): number | null {
  return calc(values, (...xs) => xs.reduce((s, x) => s + x, 0) / xs.length);
}

/** Unrounded expected value of every numeric column for one symbol. */
function expectedSnapshot(market: FixtureMarket, data: FixtureData, symbol: string): Record<string, number | null> {
  const out: Record<string, number | null> = Object.fromEntries(NUMERIC_COLUMNS.map((c) => [c, null]));
  const bars = data.bars.get(symbol) ?? [];
  if (bars.length > 0) {
    const t = bars.length - 1;
    const T = bars[t];
    // q(x) of row j in T's basis; for row T it is x itself.
    const q = (x: number | null, j: number): number | null =>
      j === t ? x : calc([x], (v) => (v * bars[j].adj) / T.adj);
    out.open = T.open;
    out.high = T.high;
    out.low = T.low;
    out.close = T.close;
    out.volume = T.volume;
    out.amount = T.amount;
    const pre = t >= 1 ? q(bars[t - 1].close, t - 1) : null;
    out.pre_close = pre;
    out.change = calc([T.close, pre], (c, p) => c - p);
    out.change_percent = calc([T.close, pre], (c, p) => ((c - p) / p) * 100);
    out.range_pct = calc([T.high, T.low, pre], (h, l, p) => ((h - l) / p) * 100);
    if (t >= 5) out.volume_ratio = calc([T.volume, mean(bars.slice(t - 5, t).map((b) => b.volume))], (v, m) => v / m);
    for (const n of [5, 10, 20, 60]) {
      if (bars.length >= n) out[`ma${n}`] = mean(bars.slice(t - n + 1).map((b, k) => q(b.close, t - n + 1 + k)));
      if (t >= n) out[`chg_${n}d`] = calc([T.close, q(bars[t - n].close, t - n)], (c, p) => (c / p - 1) * 100);
    }
    const yearStart = `${T.date.slice(0, 4)}-01-01`;
    const lastOfEarlierYear = bars.findLastIndex((b) => b.date < yearStart);
    if (lastOfEarlierYear >= 0)
      out.chg_ytd = calc([T.close, q(bars[lastOfEarlierYear].close, lastOfEarlierYear)], (c, p) => (c / p - 1) * 100);
    const cutoff = dayOf(T.date) - 365;
    const inYear = bars.map((b, j) => ({ b, j })).filter(({ b }) => dayOf(b.date) > cutoff);
    const highs = inYear.map(({ b, j }) => q(b.high, j)).filter((x): x is number => x !== null);
    const lows = inYear.map(({ b, j }) => q(b.low, j)).filter((x): x is number => x !== null);
    out.high_52week = highs.length > 0 ? Math.max(...highs) : null;
    out.low_52week = lows.length > 0 ? Math.min(...lows) : null;
    out.close_vs_ma20 = calc([T.close, out.ma20], (c, m) => (c / m - 1) * 100);
    out.close_vs_52w_high = calc([T.close, out.high_52week], (c, h) => (c / h - 1) * 100);
  }
  const rows = data.fundamentals.get(symbol) ?? [];
  const latest = [...rows].sort((a, b) => (iso(a.date) < iso(b.date) ? -1 : 1)).at(-1);
  for (const column of FUNDAMENTAL_COLUMNS) {
    const applies = ONLY_IN[column] === undefined || ONLY_IN[column] === market;
    out[column] = applies && latest !== undefined ? num(latest[column]) : null;
  }
  out.total_market_cap ??= calc([out.close, out.total_shares], (c, s) => (c * s) / 1e8);
  out.circulating_market_cap ??= calc([out.close, out.float_shares], (c, s) => (c * s) / 1e8);
  return out;
}

/**
 * Half away from zero at 4 decimals, on the value's decimal expansion cut at 10 places: a
 * value written as 12.34565 (whose double lies a hair below) counts as the tie it was
 * written as. Non-finite → null.
 */
function round4(x: number | null): number | null {
  if (x === null || !Number.isFinite(x)) return null;
  const [int, frac] = Math.abs(x).toFixed(10).split('.');
  let scaled = BigInt(int + frac.slice(0, 4));
  if (frac[4] >= '5') scaled += 1n;
  const value = Number(`${scaled / 10000n}.${String(scaled % 10000n).padStart(4, '0')}`);
  return x < 0 ? -value : value;
}

/** NaN (the engine's null) → null; −0 → 0 (both print as 0 in JSON). */
function norm(x: number | null): number | null {
  if (x === null || Number.isNaN(x)) return null;
  return x === 0 ? 0 : x;
}

// ---- Loading the fixture through the real loader ----

let stateDir = '';
let dataset: Dataset;
const fixture = {} as Record<FixtureMarket, FixtureData>;

before(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'mdq-derive-'));
  await storeEdition(FIXTURE, stateDir);
  const opened = await openCurrentDataset(stateDir);
  assert.ok(opened !== null, 'the stored fixture opens as a Dataset');
  dataset = opened;
  for (const market of MARKETS) fixture[market] = await readFixtureMarket(market);
});

after(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

function indexOf(md: MarketData, symbol: string): number {
  const i = md.symbols.find(symbol);
  assert.notEqual(i, -1, `${md.market}/${symbol} is in the Dataset`);
  return i;
}

function actual(market: FixtureMarket, symbol: string, column: string): number | null {
  const md = dataset.markets[market];
  const values = md.snapshots.values[column];
  assert.ok(values !== undefined, `the snapshot table has a column ${column}`);
  return norm(values[indexOf(md, symbol)]);
}

/** Compares `columns` of every fixture symbol `which` accepts with the expectation, rounded. */
function checkColumns(columns: readonly string[], rule: string, which: (symbol: string) => boolean = () => true): void {
  for (const market of MARKETS) {
    const data = fixture[market];
    for (const symbol of data.symbols) {
      if (!which(symbol)) continue;
      const expected = expectedSnapshot(market, data, symbol);
      for (const column of columns) {
        assert.equal(
          actual(market, symbol, column),
          norm(round4(expected[column])),
          `${market}/${symbol} ${column}: ${rule}`,
        );
      }
    }
  }
}

/** One value, as the engine answers it. */
const value = actual;

// ---- The tests ----

test('the snapshot table has exactly the numeric columns of the spec table', () => {
  for (const market of MARKETS) {
    assert.deepEqual(
      Object.keys(dataset.markets[market].snapshots.values).sort(),
      [...NUMERIC_COLUMNS].sort(),
      `${market}: one Float64Array per numeric column`,
    );
  }
});

test('the snapshot date is the latest K-line day; a symbol without K-lines has no date', () => {
  for (const market of MARKETS) {
    const md = dataset.markets[market];
    for (const symbol of fixture[market].symbols) {
      const bars = fixture[market].bars.get(symbol);
      const expected = bars === undefined ? NO_DATE : dayOf(bars[bars.length - 1].date);
      assert.equal(
        md.snapshots.date[indexOf(md, symbol)],
        expected,
        `${market}/${symbol}: date is T (the latest row, even when rows come unsorted)`,
      );
    }
  }
  assert.equal(
    dataset.markets.ashare.snapshots.date[indexOf(dataset.markets.ashare, 'sh600001')],
    dayOf('2025-03-14'),
    'sh600001: T = 2025-03-14 although the file lists it first',
  );
});

test('open, high, low, close, volume and amount are day T as stored (unadjusted; empty cells null)', () => {
  checkColumns(['open', 'high', 'low', 'close', 'volume', 'amount'], 'the K-line row of day T, unadjusted');
  assert.equal(
    value('ashare', 'sh600001', 'close'),
    6.3,
    'sh600001: close is the stored 6.30, not rescaled by adj_factor 2.157024',
  );
  assert.equal(value('ashare', 'sh600007', 'open'), null, 'sh600007: an empty open cell is null');
  assert.equal(value('ashare', 'sh600007', 'volume'), null, 'sh600007: an empty volume cell is null');
  assert.equal(value('ashare', 'sh600007', 'amount'), null, 'sh600007: an empty amount cell is null');
});

test('pre_close is the previous close in T basis (prev_close × prev_adj / adj_T), null with one row', () => {
  checkColumns(['pre_close'], 'prev_close × prev_adj / adj_T');
  assert.equal(value('ashare', 'sz000003', 'pre_close'), 3.0941, 'sz000003: 3.19 × 1 / 1.031 across the adj step on T');
  assert.equal(value('ashare', 'sz000002', 'pre_close'), null, 'sz000002: one row, no previous close');
});

test('change and change_percent follow from close and pre_close', () => {
  checkColumns(['change', 'change_percent'], 'close − pre_close; change / pre_close × 100');
  assert.equal(value('ashare', 'sz000003', 'change'), 0.0159, 'sz000003: 3.11 − 3.094083…');
  assert.equal(value('ashare', 'sz000003', 'change_percent'), 0.5144, 'sz000003: 0.015916… / 3.094083… × 100');
  assert.equal(value('ashare', 'sz000002', 'change'), null, 'sz000002: one row gives no change');
});

test('range_pct is (high − low) / pre_close × 100', () => {
  checkColumns(['range_pct'], '(high − low) / pre_close × 100');
  assert.equal(value('ashare', 'sz000002', 'range_pct'), null, 'sz000002: no pre_close, no range');
});

test('volume_ratio divides by the mean volume of the 5 rows before T; null with fewer rows or a zero mean', () => {
  checkColumns(['volume_ratio'], 'volume / mean(volume of the 5 rows before T)');
  assert.equal(
    value('ashare', 'sz000004', 'volume_ratio'),
    1.8182,
    'sz000004 (6 rows): 6400 / mean(3300, 4100, 2900, 3700, 3600)',
  );
  assert.equal(value('ashare', 'sz000003', 'volume_ratio'), null, 'sz000003 (5 rows): only 4 rows before T');
  assert.equal(
    value('ashare', 'sz000005', 'volume_ratio'),
    null,
    'sz000005: the 5 rows before T traded nothing, so no ratio',
  );
});

test('ma5, ma10, ma20, ma60 average the last N qfq closes including T; null when history is shorter', () => {
  checkColumns(['ma5', 'ma10', 'ma20', 'ma60'], 'mean of the last N q(close)');
  assert.equal(value('ashare', 'sz000003', 'ma5'), 3.0662, 'sz000003: five closes, four of them rescaled by 1 / 1.031');
  assert.equal(value('ashare', 'sz000003', 'ma10'), null, 'sz000003: 5 rows, no ma10');
  assert.notEqual(value('ashare', 'sh600001', 'ma60'), null, 'sh600001: 85 rows give an ma60 across two adj steps');
  assert.equal(value('usstock', 'usAAPL', 'ma20'), null, 'usAAPL: 12 rows, no ma20');
});

test('chg_5d, chg_10d, chg_20d, chg_60d compare close with the qfq close N rows before T; null when shorter', () => {
  checkColumns(['chg_5d', 'chg_10d', 'chg_20d', 'chg_60d'], '(close / q(close N rows before T) − 1) × 100');
  assert.equal(
    value('usstock', 'usAAPL', 'chg_10d'),
    2.1667,
    'usAAPL: 61.77 against 241.84 / 4 across the 4-for-1 split',
  );
  assert.equal(value('ashare', 'sz000004', 'chg_5d'), 1.9293, 'sz000004 (6 rows): 22.19 / 21.77');
  assert.equal(value('ashare', 'sz000003', 'chg_5d'), null, 'sz000003 (5 rows): no row 5 before T');
  assert.notEqual(value('ashare', 'sh600001', 'chg_60d'), null, 'sh600001: a 60-day change exists');
});

test('chg_ytd compares close with the qfq close of the last row of an earlier calendar year', () => {
  checkColumns(['chg_ytd'], '(close / q(close of the last row before 1 January of T’s year) − 1) × 100');
  assert.equal(
    value('ashare', 'sh600001', 'chg_ytd'),
    21.4468,
    'sh600001: 6.30 against 10.63 (2024-12-31) × 1.052631 / 2.157024',
  );
  assert.equal(value('ashare', 'sz000004', 'chg_ytd'), null, 'sz000004: no row in an earlier year');
});

test('high_52week and low_52week span only rows dated after T − 365 days, in qfq basis', () => {
  checkColumns(['high_52week', 'low_52week'], 'max q(high) / min q(low) of rows dated after T − 365 days');
  // 2024-03-14 (= T − 365) holds high 18.00 / low 6.00 and must be left out; 2024-03-15 (low 7.50) counts.
  assert.equal(
    value('ashare', 'sh600001', 'high_52week'),
    6.9296,
    'sh600001: 14.20 (2024-06-14) × 1.052631 / 2.157024, not the 18.00 of T − 365',
  );
  assert.equal(
    value('ashare', 'sh600001', 'low_52week'),
    3.66,
    'sh600001: 7.50 (2024-03-15, T − 364) × 1.052631 / 2.157024, not the 6.00 of T − 365',
  );
  assert.equal(value('usstock', 'usAAPL', 'low_52week'), 58.8525, 'usAAPL: 235.41 / 4 from before the split');
  assert.equal(value('ashare', 'sz000002', 'high_52week'), 7.45, 'sz000002: one row gives its own high');
});

test('close_vs_ma20 and close_vs_52w_high are computed from the unrounded ma20 and 52-week high', () => {
  checkColumns(['close_vs_ma20', 'close_vs_52w_high'], '(close / ma20 − 1) × 100; (close / high_52week − 1) × 100');
  assert.equal(value('ashare', 'sz000002', 'close_vs_52w_high'), -1.6107, 'sz000002: 7.33 / 7.45');
  assert.equal(value('ashare', 'sz000002', 'close_vs_ma20'), null, 'sz000002: no ma20, no deviation');
});

test('name, market_name and market_type come from symbols.csv; null when the file, row or cell lacks them', () => {
  for (const market of MARKETS) {
    const md = dataset.markets[market];
    const data = fixture[market];
    for (const symbol of data.symbols) {
      const i = indexOf(md, symbol);
      const row = data.labels.get(symbol);
      const text = (column: string): string | null => (row?.[column] ?? '') || null;
      assert.equal(md.symbols.labels.names[i] ?? null, text('name'), `${market}/${symbol}: name`);
      assert.equal(md.symbols.labels.marketNames[i] ?? null, text('market_name'), `${market}/${symbol}: market_name`);
      assert.equal(md.symbols.labels.marketTypes[i] ?? null, text('market_type'), `${market}/${symbol}: market_type`);
    }
  }
  assert.equal(
    dataset.markets.ashare.symbols.labels.names[indexOf(dataset.markets.ashare, 'sz000004')] ?? null,
    null,
    'sz000004 is not in symbols.csv: no name',
  );
});

test('fundamental columns come from the latest-dated fundamentals row; its empty cells are null', () => {
  const plain = FUNDAMENTAL_COLUMNS.filter((c) => ONLY_IN[c] === undefined && !CAP_COLUMNS.includes(c));
  checkColumns(plain, 'the fundamentals.csv row with the latest date', (s) => s !== ROUNDING_SYMBOL);
  assert.equal(
    value('ashare', 'sh600006', 'pe_ratio'),
    12.5,
    'sh600006: the 2025-03-14 row wins over 2025-01-15 and 2024-12-31 (listed out of order)',
  );
  assert.equal(
    value('ashare', 'sh600007', 'pe_ratio'),
    null,
    'sh600007: the latest row’s empty pe_ratio is null, not the older 9.9',
  );
  assert.equal(value('ashare', 'sh600001', 'turnover_rate'), 0.8765, 'sh600001: 0.8765432 rounded to 4 decimals');
  assert.equal(value('ashare', 'sz000005', 'pe_ratio'), null, 'sz000005: no fundamentals row at all');
  assert.equal(
    value('ashare', 'sh600008', 'pe_ratio'),
    15.5,
    'sh600008: fundamentals apply to a symbol without K-lines',
  );
});

test('market-only columns (inner/outer_volume, wb_ratio, eps_ttm) are null outside their market', () => {
  checkColumns(Object.keys(ONLY_IN), 'a market-only column is null elsewhere, even when fundamentals.csv supplies it');
  assert.equal(value('hkstock', 'hk00700', 'wb_ratio'), 8.1235, 'hk00700: wb_ratio applies to hkstock');
  assert.equal(
    value('ashare', 'sh600001', 'wb_ratio'),
    null,
    'sh600001: wb_ratio 7.5 in ashare fundamentals is not answered',
  );
  assert.equal(value('hkstock', 'hk00700', 'eps_ttm'), null, 'hk00700: eps_ttm is usstock only');
  assert.equal(value('hkstock', 'hk00700', 'inner_volume'), null, 'hk00700: inner_volume is ashare only');
  assert.equal(value('usstock', 'usAAPL', 'eps_ttm'), 6.1235, 'usAAPL: eps_ttm applies to usstock');
  assert.equal(value('usstock', 'usAAPL', 'outer_volume'), null, 'usAAPL: outer_volume is ashare only');
  assert.equal(value('ashare', 'sh600001', 'inner_volume'), 21000, 'sh600001: inner_volume applies to ashare');
});

test('market caps: as given when present, else close × shares / 1e8, else null', () => {
  checkColumns(CAP_COLUMNS, 'the given cap, or close × shares / 1e8 when the cap is missing and shares are present');
  assert.equal(
    value('ashare', 'sh600006', 'total_market_cap'),
    243.2469,
    'sh600006: 10.37 × 2345678901 / 1e8 (older rows’ caps ignored)',
  );
  assert.equal(value('ashare', 'sh600006', 'circulating_market_cap'), 128.0247, 'sh600006: 10.37 × 1234567890 / 1e8');
  assert.equal(value('ashare', 'sh600001', 'total_market_cap'), 1358.99, 'sh600001: a given cap is answered as given');
  assert.equal(value('ashare', 'sh600007', 'total_market_cap'), null, 'sh600007: no cap and no shares');
  assert.equal(value('ashare', 'sh600008', 'total_market_cap'), null, 'sh600008: shares but no close (no K-lines)');
});

test('an answered value halfway between two 4-decimal values rounds away from zero', () => {
  checkColumns(
    FUNDAMENTAL_COLUMNS.filter((c) => ONLY_IN[c] === undefined),
    'half away from zero',
    (s) => s === ROUNDING_SYMBOL,
  );
  assert.equal(value('ashare', ROUNDING_SYMBOL, 'avg_price'), 2.0001, '2.00005 → 2.0001');
  assert.equal(value('ashare', ROUNDING_SYMBOL, 'pe_ratio'), -2.0001, '−2.00005 → −2.0001');
  assert.equal(value('ashare', ROUNDING_SYMBOL, 'pe_fwd'), -1.0002, '−1.00015 → −1.0002');
  assert.equal(value('ashare', ROUNDING_SYMBOL, 'dividend_ttm'), 1.2346, '1.23455 → 1.2346');
  assert.equal(value('ashare', ROUNDING_SYMBOL, 'pb_ratio'), 12.3457, '12.34565 → 12.3457');
  assert.equal(value('ashare', ROUNDING_SYMBOL, 'turnover_rate'), 0.0002, '0.00015 → 0.0002');
});

test('every answered number has at most 4 decimals', () => {
  for (const market of MARKETS) {
    const md = dataset.markets[market];
    for (const column of NUMERIC_COLUMNS) {
      for (const x of md.snapshots.values[column]) {
        if (Number.isNaN(x)) continue;
        assert.equal(Math.round(x * 1e4) / 1e4, x, `${market} ${column}: ${x} is rounded to 4 decimals`);
      }
    }
  }
});

test('the fixture keeps every compared derived value clear of a 4-decimal rounding tie', () => {
  // Exact comparison is only meaningful when the 5th decimal onwards is not ≈ 5000…:
  // there, two correct computations differing in the last bit could round apart.
  for (const market of MARKETS) {
    for (const symbol of fixture[market].symbols) {
      if (symbol === ROUNDING_SYMBOL) continue;
      for (const [column, x] of Object.entries(expectedSnapshot(market, fixture[market], symbol))) {
        if (x === null) continue;
        const rest = Math.abs(x * 1e4) % 1;
        assert.ok(
          Math.abs(rest - 0.5) > 1e-6,
          `${market}/${symbol} ${column} = ${x} sits on a rounding tie: change the fixture`,
        );
      }
    }
  }
});
