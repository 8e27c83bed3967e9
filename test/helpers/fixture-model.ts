// What every endpoint must answer over the fixture snapshot, computed here from its CSV text (not by the engine).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE } from './api-server.js';

/** The six markets in the spec's order, and the three the fixture fills. */
export const ALL_MARKETS = ['ashare', 'hkstock', 'usstock', 'crypto', 'indices', 'etfs'] as const;
export const FIXTURE_MARKETS = ['ashare', 'hkstock', 'usstock'] as const;
export type FixtureMarket = (typeof FIXTURE_MARKETS)[number];

/** K-line fields in response order, their short codes, and which of them adjustments rescale. */
export const KLINE_FIELDS = ['open', 'high', 'low', 'close', 'volume', 'amount'] as const;
export type KlineField = (typeof KLINE_FIELDS)[number];
export const SHORT: Record<string, KlineField> = {
  o: 'open',
  h: 'high',
  l: 'low',
  c: 'close',
  v: 'volume',
  a: 'amount',
};
const PRICES: ReadonlySet<string> = new Set(['open', 'high', 'low', 'close']);

/** The spec's detail snapshot table: column, category, in its order. */
export const SNAPSHOT_TABLE: readonly [string, string][] = [
  ['symbol', 'identifier'],
  ['date', 'identifier'],
  ['name', 'identifier'],
  ['market_name', 'identifier'],
  ['market_type', 'identifier'],
  ['open', 'quote'],
  ['high', 'quote'],
  ['low', 'quote'],
  ['close', 'quote'],
  ['pre_close', 'quote'],
  ['avg_price', 'quote'],
  ['volume', 'quote'],
  ['amount', 'quote'],
  ['change', 'quote'],
  ['change_percent', 'quote'],
  ['inner_volume', 'quote'],
  ['outer_volume', 'quote'],
  ['turnover_rate', 'activity'],
  ['volume_ratio', 'activity'],
  ['range_pct', 'activity'],
  ['pe_ratio', 'valuation'],
  ['pe_fwd', 'valuation'],
  ['pe_lyr', 'valuation'],
  ['pb_ratio', 'valuation'],
  ['dividend_ratio_ttm', 'valuation'],
  ['dividend_ttm', 'valuation'],
  ['wb_ratio', 'valuation'],
  ['eps_ttm', 'valuation'],
  ['total_market_cap', 'size'],
  ['circulating_market_cap', 'size'],
  ['total_shares', 'size'],
  ['float_shares', 'size'],
  ['high_52week', 'position'],
  ['low_52week', 'position'],
  ['chg_5d', 'momentum'],
  ['chg_10d', 'momentum'],
  ['chg_20d', 'momentum'],
  ['chg_60d', 'momentum'],
  ['chg_ytd', 'momentum'],
  ['ma5', 'derived'],
  ['ma10', 'derived'],
  ['ma20', 'derived'],
  ['ma60', 'derived'],
  ['close_vs_ma20', 'derived'],
  ['close_vs_52w_high', 'derived'],
];
export const SNAPSHOT_COLUMNS = SNAPSHOT_TABLE.map(([name]) => name);
/** The screen whitelist: every numeric snapshot column, open … close_vs_52w_high. */
export const NUMERIC_COLUMNS = SNAPSHOT_COLUMNS.slice(SNAPSHOT_COLUMNS.indexOf('open'));
/** The detail columns neither from the K-lines, derived nor from symbols.csv: read from the latest fundamentals.csv row. */
const FUNDAMENTAL = [
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
/** Columns the spec ties to one market (null elsewhere). */
const ONLY_IN: Record<string, FixtureMarket> = {
  inner_volume: 'ashare',
  outer_volume: 'ashare',
  wb_ratio: 'hkstock',
  eps_ttm: 'usstock',
};

// ---- Exact decimal arithmetic on the CSV text ----

interface Dec {
  n: bigint;
  scale: number;
}
function dec(text: string): Dec {
  const neg = text.startsWith('-');
  const body = text.replace(/^[+-]/, '');
  const [int, frac = ''] = body.split('.');
  const n = BigInt((int || '0') + frac);
  return { n: neg ? -n : n, scale: frac.length };
}
const pow10 = (k: number): bigint => 10n ** BigInt(k);

/** num/den (den > 0) rounded half away from zero to 4 decimals, as a JSON number. */
function roundRatio4(num: bigint, den: bigint): number {
  const neg = num < 0n;
  const a = neg ? -num : num;
  const q = (2n * a * 10_000n + den) / (2n * den);
  const v = Number(q) / 1e4;
  return neg && v !== 0 ? -v : v;
}

/** A decimal text rounded half away from zero to 4 decimals (2.00005 → 2.0001). */
export function round4Text(text: string): number {
  const d = dec(text);
  return roundRatio4(d.n, pow10(d.scale));
}

/** A computed double rounded half away from zero to 4 decimals, as its decimal text (10 places) reads. */
export function round4(x: number | null): number | null {
  if (x === null || !Number.isFinite(x)) return null;
  return round4Text(x.toFixed(10));
}

/** price × adj rounded (hfq), or price × adj / base rounded (qfq): exact on the decimal texts. */
export function adjusted(price: string, adj: string, base: string | null): number {
  const p = dec(price);
  const a = dec(adj);
  if (base === null) return roundRatio4(p.n * a.n, pow10(p.scale + a.scale));
  const b = dec(base);
  return roundRatio4(p.n * a.n * pow10(b.scale), pow10(p.scale + a.scale) * b.n);
}

// ---- The fixture's files ----

type Row = Record<string, string>;

function readCsv(path: string): Row[] {
  if (!existsSync(path)) return [];
  const [head, ...lines] = readFileSync(path, 'utf8').trim().split('\n');
  const columns = head.split(',').map((c) => c.trim());
  return lines.map((line) => {
    const cells = line.split(',');
    return Object.fromEntries(columns.map((c, i) => [c, (cells[i] ?? '').trim()]));
  });
}

/** `YYYYMMDD` or `YYYY-MM-DD` → `YYYY-MM-DD`. */
const iso = (text: string): string =>
  text.length === 8 ? `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6)}` : text;
const num = (text: string | undefined): number | null => (text === undefined || text === '' ? null : Number(text));
/** Days since 1970-01-01 via Date.UTC. */
export const dayOf = (isoDate: string): number =>
  Date.UTC(+isoDate.slice(0, 4), +isoDate.slice(5, 7) - 1, +isoDate.slice(8, 10)) / 86_400_000;

/** One K-line row as the CSV wrote it (empty cell ''), with adj_factor '1' when empty. */
export interface Bar {
  date: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  amount: string;
  adj: string;
}

export interface MarketFixture {
  /** Every symbol any of the market's files names, ascending. */
  symbols: string[];
  bars: Map<string, Bar[]>;
  labels: Map<string, Row>;
  fundamentals: Map<string, Row[]>;
}

function readMarket(market: string): MarketFixture {
  const bars = new Map<string, Bar[]>();
  for (const r of readCsv(join(FIXTURE, market, 'klines.csv'))) {
    const bar: Bar = {
      date: iso(r.date),
      open: r.open,
      high: r.high,
      low: r.low,
      close: r.close,
      volume: r.volume,
      amount: r.amount,
      adj: r.adj_factor || '1',
    };
    if (!bars.has(r.symbol)) bars.set(r.symbol, []);
    bars.get(r.symbol)!.push(bar);
  }
  for (const list of bars.values()) list.sort((a, b) => (a.date < b.date ? -1 : 1));
  const labels = new Map(readCsv(join(FIXTURE, market, 'symbols.csv')).map((r) => [r.symbol, r]));
  const fundamentals = new Map<string, Row[]>();
  for (const r of readCsv(join(FIXTURE, market, 'fundamentals.csv'))) {
    if (!fundamentals.has(r.symbol)) fundamentals.set(r.symbol, []);
    fundamentals.get(r.symbol)!.push(r);
  }
  const symbols = [...new Set([...labels.keys(), ...bars.keys(), ...fundamentals.keys()])].sort();
  return { symbols, bars, labels, fundamentals };
}

/** The fixture, read once. Markets it lacks are present and empty. */
export const FIX: Record<string, MarketFixture> = Object.fromEntries(ALL_MARKETS.map((m) => [m, readMarket(m)]));

/** The fixture's data version is its manifest id plus a content hash: only the prefix is known here. */
export const MANIFEST_ID: string = JSON.parse(readFileSync(join(FIXTURE, 'manifest.json'), 'utf8')).id;

// ---- K-lines: the window (with `start` forward from it, else backward from `end`), adjustment, fields ----

export interface KlineQuery {
  start?: string;
  end?: string;
  offset?: number;
  /** The limit in effect (already clamped to the plan). */
  limit: number;
  adj?: 'bfq' | 'qfq' | 'hfq';
  /** qfq to the factor of the last bar dated on or before this day instead of the latest bar's. */
  qfqBase?: string;
  fields: readonly KlineField[];
}

/** The rows of one symbol's window and `total` (rows in the date range). */
export function klineWindow(
  market: string,
  symbol: string,
  q: KlineQuery,
): { total: number; rows: Record<string, unknown>[] } {
  const bars = FIX[market].bars.get(symbol) ?? [];
  const inRange = bars.filter(
    (b) => (q.start === undefined || b.date >= q.start) && (q.end === undefined || b.date <= q.end),
  );
  const offset = q.offset ?? 0;
  let picked: Bar[];
  if (q.start !== undefined) picked = inRange.slice(offset, offset + q.limit);
  else {
    const to = Math.max(inRange.length - offset, 0);
    picked = inRange.slice(Math.max(to - q.limit, 0), to);
  }
  const baseBars = q.qfqBase === undefined ? bars : bars.filter((b) => b.date <= q.qfqBase!);
  const latestAdj = baseBars.length > 0 ? baseBars[baseBars.length - 1].adj : '1';
  const adj = q.adj ?? 'bfq';
  const rows = picked.map((b) => {
    const row: Record<string, unknown> = { symbol, date: b.date };
    for (const f of q.fields) {
      const text = b[f];
      if (text === '') row[f] = null;
      else if (adj === 'bfq' || !PRICES.has(f)) row[f] = Number(text);
      else row[f] = adjusted(text, b.adj, adj === 'qfq' ? latestAdj : null);
    }
    row.adj_factor = Number(b.adj);
    return row;
  });
  return { total: inRange.length, rows };
}

/** The response's `fields`: symbol, date, the selected fields in fixed order, adj_factor. */
export const klineFieldNames = (fields: readonly KlineField[]): string[] => ['symbol', 'date', ...fields, 'adj_factor'];

// ---- Detail snapshots: day T's row, columns derived from the history adjusted to T, fundamentals ----

function calc(args: (number | null)[], fn: (...x: number[]) => number): number | null {
  if (args.some((x) => x === null)) return null;
  const v = fn(...(args as number[]));
  return Number.isFinite(v) ? v : null;
}
const mean = (xs: (number | null)[]): number | null => calc(xs, (...v) => v.reduce((s, x) => s + x, 0) / v.length);

/** Every column of one symbol's snapshot, answered values (rounded, nulls), keyed by column. */
export function snapshot(market: string, symbol: string): Record<string, string | number | null> {
  const fx = FIX[market];
  const out: Record<string, string | number | null> = Object.fromEntries(SNAPSHOT_COLUMNS.map((c) => [c, null]));
  out.symbol = symbol;
  const label = fx.labels.get(symbol);
  out.name = label?.name || null;
  out.market_name = label?.market_name || null;
  out.market_type = label?.market_type || null;
  const bars = fx.bars.get(symbol) ?? [];
  const raw: Record<string, number | null> = {};
  if (bars.length > 0) {
    const t = bars.length - 1;
    const T = bars[t];
    out.date = T.date;
    const adjT = Number(T.adj);
    const q = (x: string, j: number): number | null =>
      x === '' ? null : j === t ? Number(x) : (Number(x) * Number(bars[j].adj)) / adjT;
    const close = num(T.close);
    for (const f of KLINE_FIELDS) raw[f] = num(T[f]);
    const pre = t >= 1 ? q(bars[t - 1].close, t - 1) : null;
    raw.pre_close = pre;
    raw.change = calc([close, pre], (c, p) => c - p);
    raw.change_percent = calc([close, pre], (c, p) => ((c - p) / p) * 100);
    raw.range_pct = calc([num(T.high), num(T.low), pre], (h, l, p) => ((h - l) / p) * 100);
    if (t >= 5)
      raw.volume_ratio = calc([num(T.volume), mean(bars.slice(t - 5, t).map((b) => num(b.volume)))], (v, m) => v / m);
    for (const n of [5, 10, 20, 60]) {
      if (bars.length >= n) raw[`ma${n}`] = mean(bars.slice(t - n + 1).map((b, k) => q(b.close, t - n + 1 + k)));
      if (t >= n) raw[`chg_${n}d`] = calc([close, q(bars[t - n].close, t - n)], (c, p) => (c / p - 1) * 100);
    }
    const earlier = bars.findLastIndex((b) => b.date < `${T.date.slice(0, 4)}-01-01`);
    if (earlier >= 0) raw.chg_ytd = calc([close, q(bars[earlier].close, earlier)], (c, p) => (c / p - 1) * 100);
    const cutoff = dayOf(T.date) - 365;
    const year = bars.map((b, j) => ({ b, j })).filter(({ b }) => dayOf(b.date) > cutoff);
    const highs = year.map(({ b, j }) => q(b.high, j)).filter((x): x is number => x !== null);
    const lows = year.map(({ b, j }) => q(b.low, j)).filter((x): x is number => x !== null);
    raw.high_52week = highs.length > 0 ? Math.max(...highs) : null;
    raw.low_52week = lows.length > 0 ? Math.min(...lows) : null;
    raw.close_vs_ma20 = calc([close, raw.ma20 ?? null], (c, m) => (c / m - 1) * 100);
    raw.close_vs_52w_high = calc([close, raw.high_52week], (c, h) => (c / h - 1) * 100);
  }
  for (const [name, value] of Object.entries(raw))
    out[name] =
      KLINE_FIELDS.includes(name as KlineField) && value !== null
        ? round4Text(bars[bars.length - 1][name as KlineField])
        : round4(value);
  const rows = fx.fundamentals.get(symbol) ?? [];
  const latest = [...rows].sort((a, b) => (iso(a.date) < iso(b.date) ? -1 : 1)).at(-1);
  for (const c of FUNDAMENTAL) {
    const applies = ONLY_IN[c] === undefined || ONLY_IN[c] === market;
    const text = applies && latest !== undefined ? latest[c] : undefined;
    out[c] = text === undefined || text === '' ? null : round4Text(text);
  }
  const closeRaw = bars.length > 0 ? num(bars[bars.length - 1].close) : null;
  const shares = (c: string): number | null => (latest?.[c] ? Number(latest[c]) : null);
  if (out.total_market_cap === null)
    out.total_market_cap = round4(calc([closeRaw, shares('total_shares')], (c, s) => (c * s) / 1e8));
  if (out.circulating_market_cap === null)
    out.circulating_market_cap = round4(calc([closeRaw, shares('float_shares')], (c, s) => (c * s) / 1e8));
  return out;
}

/** The snapshot narrowed to `columns` (symbol and date always), in the spec's table order. */
export function snapshotRow(
  market: string,
  symbol: string,
  columns: Iterable<string>,
): Record<string, string | number | null> {
  const wanted = new Set(['symbol', 'date', ...columns]);
  const full = snapshot(market, symbol);
  return Object.fromEntries(SNAPSHOT_COLUMNS.filter((c) => wanted.has(c)).map((c) => [c, full[c]]));
}

// ---- Screen: inclusive bounds (a null never passes), nulls last either way, ties by symbol ----

/** Default screen row columns: symbol, name, date, close, change_percent, valuation, size, momentum. */
export const SCREEN_DEFAULT = SNAPSHOT_TABLE.filter(
  ([c, cat]) =>
    ['symbol', 'name', 'date', 'close', 'change_percent'].includes(c) ||
    ['valuation', 'size', 'momentum'].includes(cat),
).map(([c]) => c);

export interface ScreenQuery {
  bounds?: Record<string, { min?: number; max?: number }>;
  sort?: string;
  order?: 'asc' | 'desc';
  offset?: number;
  limit: number;
  /** Requested row columns (null: the default columns). */
  fields?: string[] | null;
}

/** The whole screen answer of one market. */
export function screenAnswer(market: string, q: ScreenQuery): Record<string, unknown> {
  const sort = q.sort ?? 'change_percent';
  const order = q.order ?? 'desc';
  const bounds = q.bounds ?? {};
  const snaps = FIX[market].symbols.map((s) => snapshot(market, s));
  const matched = snaps.filter((s) =>
    Object.entries(bounds).every(([c, b]) => {
      const v = s[c] as number | null;
      return v !== null && (b.min === undefined || v >= b.min) && (b.max === undefined || v <= b.max);
    }),
  );
  const sign = order === 'desc' ? -1 : 1;
  const sorted = [...matched].sort((a, b) => {
    const x = a[sort] as number | null;
    const y = b[sort] as number | null;
    if (x === null || y === null) return x === y ? cmp(a.symbol, b.symbol) : x === null ? 1 : -1;
    return x === y ? cmp(a.symbol, b.symbol) : (x - y) * sign;
  });
  const columns = new Set(q.fields == null ? SCREEN_DEFAULT : ['symbol', 'name', 'date', ...q.fields]);
  for (const c of Object.keys(bounds)) columns.add(c);
  columns.add(sort);
  const offset = q.offset ?? 0;
  const page = sorted.slice(offset, offset + q.limit);
  const data = page.map((s) =>
    Object.fromEntries(SNAPSHOT_COLUMNS.filter((c) => columns.has(c)).map((c) => [c, s[c]])),
  );
  return { market, total: matched.length, count: data.length, limit: q.limit, offset, sort, order, data };
}

const cmp = (a: unknown, b: unknown): number => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);

// ---- Symbols: exact code, code prefix, code substring, name substring; ties by symbol ----

/** Ranked matches of `search` (exact code, code prefix, code substring, name substring; ties by symbol). */
export function symbolMatches(market: string, search: string | null): { symbol: string; name: string | null }[] {
  const fx = FIX[market];
  const entry = (s: string) => ({ symbol: s, name: fx.labels.get(s)?.name || null });
  if (search === null) return fx.symbols.map(entry);
  const needle = search.toLowerCase();
  const rank = (s: string): number => {
    const code = s.toLowerCase();
    if (code === needle) return 0;
    if (code.startsWith(needle)) return 1;
    if (code.includes(needle)) return 2;
    if ((fx.labels.get(s)?.name ?? '').toLowerCase().includes(needle)) return 3;
    return 4;
  };
  return fx.symbols
    .map((s) => ({ s, r: rank(s) }))
    .filter((x) => x.r < 4)
    .sort((a, b) => a.r - b.r || cmp(a.s, b.s))
    .map((x) => entry(x.s));
}

// ---- Markets and macro ----

/** `/markets` rows in the spec's market order. */
export function marketsRows(): Record<string, unknown>[] {
  return ALL_MARKETS.map((m) => {
    const all = [...FIX[m].bars.values()]
      .flat()
      .map((b) => b.date)
      .sort();
    return {
      market: m,
      symbols: FIX[m].symbols.length,
      rows: all.length,
      start_date: all[0] ?? null,
      end_date: all.at(-1) ?? null,
    };
  });
}

export const MACRO_ORDER = ['gdp', 'cpi_ppi', 'pmi'];

/** Macro rows: one per (indicator, date), by indicator order then date; optional indicator and inclusive years. */
export function macroRows(indicator?: string, startYear?: number, endYear?: number): Record<string, unknown>[] {
  const groups = new Map<string, { indicator: string; date: string; data: Record<string, number | null> }>();
  for (const r of readCsv(join(FIXTURE, 'macro.csv'))) {
    const date = iso(r.date);
    const k = `${r.indicator}|${date}`;
    if (!groups.has(k)) groups.set(k, { indicator: r.indicator, date, data: {} });
    groups.get(k)!.data[r.key] = num(r.value);
  }
  return [...groups.values()]
    .filter((g) => indicator === undefined || g.indicator === indicator)
    .filter(
      (g) =>
        (startYear === undefined || +g.date.slice(0, 4) >= startYear) &&
        (endYear === undefined || +g.date.slice(0, 4) <= endYear),
    )
    .sort((a, b) => MACRO_ORDER.indexOf(a.indicator) - MACRO_ORDER.indexOf(b.indicator) || cmp(a.date, b.date));
}
