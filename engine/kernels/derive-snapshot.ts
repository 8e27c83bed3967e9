// Computes every column of the detail snapshot from K-lines and fundamentals: the row of the
// symbol's latest K-line day T, columns derived from its history forward-adjusted to T (unrounded;
// null when the history is too short), symbols.csv's labels, and the latest fundamentals row.

import { civilFromDays, daysFromCivil, INVALID_DATE } from '../calendar/days.js';
import { NUMERIC_SNAPSHOT_COLUMNS, SNAPSHOT_COLUMNS } from '../columns.js';
import type { FundamentalColumns, KlineColumns } from '../dataset/kline-columns.js';
import type { Market } from '../markets.js';
import { lowerBound, upperBound } from './date-range.js';
import { round4 } from './round.js';
import { sortOrder } from './sort-orders.js';

const sharedUint32 = (n: number): Uint32Array => new Uint32Array(new SharedArrayBuffer(n * 4));

/** Date of a symbol that has no K-lines (its snapshot date is null). */
export const NO_DATE = INVALID_DATE;

/** One row per symbol: the snapshot day and every numeric column (NaN = null), as answered. */
export interface SnapshotTable {
  size: number;
  date: Int32Array;
  values: Record<string, Float64Array>;
  /** Per numeric column, all rows in screen order (nulls last, ties by symbol): see sort-orders.ts. */
  ascending: Record<string, Uint32Array>;
  descending: Record<string, Uint32Array>;
  /** The day of a table made for a past day (as_of); absent on a Dataset's own tables. */
  asOf?: number;
}

const MA_WINDOWS = [5, 10, 20, 60] as const;
const CHG_WINDOWS = [5, 10, 20, 60] as const;

/** Columns a market's snapshots may carry from fundamentals.csv (others are null there). */
function fundamentalColumnsOf(market: Market): string[] {
  return SNAPSHOT_COLUMNS.filter(
    (c) => c.source === 'fundamental' && (c.only === undefined || c.only.includes(market)),
  ).map((c) => c.name);
}

/** A snapshot table's rows before its screen orders: what derivation fills, in shared memory. */
export interface SnapshotRows {
  date: Int32Array;
  values: Record<string, Float64Array>;
}

/**
 * Rows for `size` symbols in one SharedArrayBuffer, so pool workers can fill ranges of them in
 * place: the value columns, then the dates (one allocation, not 81: each costs ~30 µs here).
 */
export function allocateSnapshotRows(size: number): SnapshotRows {
  const buffer = new SharedArrayBuffer(
    size * (NUMERIC_SNAPSHOT_COLUMNS.length * Float64Array.BYTES_PER_ELEMENT + Int32Array.BYTES_PER_ELEMENT),
  );
  const values: Record<string, Float64Array> = {};
  NUMERIC_SNAPSHOT_COLUMNS.forEach(
    (name, c) => (values[name] = new Float64Array(buffer, c * size * Float64Array.BYTES_PER_ELEMENT, size)),
  );
  return {
    date: new Int32Array(buffer, NUMERIC_SNAPSHOT_COLUMNS.length * size * Float64Array.BYTES_PER_ELEMENT, size),
    values,
  };
}

/**
 * The snapshot of each symbol is its latest K-line day T; q(x) rescales a price of row j
 * into T's basis by adj_j / adj_T. Values are computed unrounded and rounded once at the
 * end; a value whose history is too short, or that divides by zero, is NaN (null).
 *
 * Point in time: with `asOf` (a day), every row dated after it is as if absent, so T is the
 * last K-line day on or before it and the fundamentals row is the last on or before it;
 * with `symbols`, table row r is market symbol symbols[r] (default: all, in order). Such a
 * table sorts each screen order on first read (see `ordered`).
 */
export function deriveSnapshots(
  market: Market,
  k: KlineColumns,
  f: FundamentalColumns,
  asOf: number | null = null,
  symbols: ArrayLike<number> | null = null,
): SnapshotTable {
  const size = symbols === null ? k.offsets.length - 1 : symbols.length;
  const rows = allocateSnapshotRows(size);
  deriveRows(market, k, f, asOf, symbols, 0, size, rows);
  return withScreenOrders(size, rows, asOf);
}

/**
 * Fills table rows [from, to) of `out` (see deriveSnapshots): the unit of work a pool worker
 * takes, touching no row outside its range.
 */
export function deriveRows(
  market: Market,
  k: KlineColumns,
  f: FundamentalColumns,
  asOf: number | null,
  symbols: ArrayLike<number> | null,
  from: number,
  to: number,
  out: SnapshotRows,
): void {
  const { date, values } = out;
  date.fill(NO_DATE, from, to);
  for (const name of NUMERIC_SNAPSHOT_COLUMNS) values[name].fill(NaN, from, to);
  const supplied = fundamentalColumnsOf(market).filter((name) => name in f.columns);
  const sources = supplied.map((name) => f.columns[name]);
  const targets = supplied.map((name) => values[name]);
  const derived = klineOutputs(values);

  for (let i = from; i < to; i++) {
    const s = symbols === null ? i : symbols[i];
    const a = k.offsets[s];
    const b = asOf === null ? k.offsets[s + 1] : upperBound(k.date, a, k.offsets[s + 1], asOf);
    if (b > a) {
      date[i] = k.date[b - 1];
      deriveFromKlines(k, a, b, i, derived);
    }
    const latest = (asOf === null ? f.offsets[s + 1] : upperBound(f.date, f.offsets[s], f.offsets[s + 1], asOf)) - 1;
    if (latest >= f.offsets[s]) for (let c = 0; c < sources.length; c++) targets[c][i] = sources[c][latest];
    const close = values.close[i];
    if (values.total_market_cap[i] !== values.total_market_cap[i])
      values.total_market_cap[i] = (close * values.total_shares[i]) / 1e8;
    if (values.circulating_market_cap[i] !== values.circulating_market_cap[i])
      values.circulating_market_cap[i] = (close * values.float_shares[i]) / 1e8;
  }
  for (const name of NUMERIC_SNAPSHOT_COLUMNS) {
    const column = values[name];
    for (let i = from; i < to; i++) column[i] = Number.isFinite(column[i]) ? round4(column[i]) : NaN;
  }
}

/** The table of filled rows with its screen orders: sorted now for a Dataset's own table, on first read for a past day's. */
export function withScreenOrders(size: number, rows: SnapshotRows, asOf: number | null): SnapshotTable {
  const ascending: Record<string, Uint32Array> = {};
  const descending: Record<string, Uint32Array> = {};
  for (const name of NUMERIC_SNAPSHOT_COLUMNS) {
    const column = rows.values[name];
    if (asOf !== null) {
      ordered(ascending, name, () => sortOrder(column, false, sharedUint32));
      ordered(descending, name, () => sortOrder(column, true, sharedUint32));
    } else {
      ascending[name] = sortOrder(column, false, sharedUint32);
      descending[name] = sortOrder(column, true, sharedUint32);
    }
  }
  const table = { size, date: rows.date, values: rows.values, ascending, descending };
  return asOf === null ? table : { ...table, asOf };
}

/**
 * `orders[name]` sorted on first read, then kept. For the tables made per request (as of a
 * past day): a screen reads the orders of its sort and bound columns only, 1 to 4 of the 80, and
 * the sorts were most of such a table's cost.
 */
function ordered(orders: Record<string, Uint32Array>, name: string, sort: () => Uint32Array): void {
  Object.defineProperty(orders, name, {
    configurable: true,
    enumerable: true,
    get() {
      const order = sort();
      Object.defineProperty(orders, name, { value: order, enumerable: true });
      return order;
    },
  });
}

/**
 * The K-line-derived output columns, looked up once per table rather than by name per symbol.
 * Built as one object literal: a shape assembled from a list of names measured ~15 % slower.
 */
interface KlineOutputs {
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  amount: Float64Array;
  pre_close: Float64Array;
  change: Float64Array;
  change_percent: Float64Array;
  range_pct: Float64Array;
  volume_ratio: Float64Array;
  ma: Float64Array[];
  chg: Float64Array[];
  chg_ytd: Float64Array;
  high_52week: Float64Array;
  low_52week: Float64Array;
  close_vs_ma20: Float64Array;
  close_vs_52w_high: Float64Array;
}

function klineOutputs(v: Record<string, Float64Array>): KlineOutputs {
  const {
    open,
    high,
    low,
    close,
    volume,
    amount,
    pre_close,
    change,
    change_percent,
    range_pct,
    volume_ratio,
    chg_ytd,
    high_52week,
    low_52week,
    close_vs_ma20,
    close_vs_52w_high,
  } = v;
  const ma = MA_WINDOWS.map((w) => v[`ma${w}`]);
  const chg = CHG_WINDOWS.map((w) => v[`chg_${w}d`]);
  return {
    open,
    high,
    low,
    close,
    volume,
    amount,
    pre_close,
    change,
    change_percent,
    range_pct,
    volume_ratio,
    ma,
    chg,
    chg_ytd,
    high_52week,
    low_52week,
    close_vs_ma20,
    close_vs_52w_high,
  };
}

/** A price of row j in the basis of day T: x × (adj_j / adj_T), the one expression every column uses. */
const inBasis = (x: number, adjRow: number, adjT: number): number => x * (adjRow / adjT);

/** Fills symbol `i`'s K-line-derived columns from its rows [a, b). */
function deriveFromKlines(k: KlineColumns, a: number, b: number, i: number, out: KlineOutputs): void {
  const T = b - 1;
  const n = b - a;
  const adj = k.adj_factor;
  const adjT = adj[T];
  const closes = k.close;
  const close = closes[T];
  const high = k.high[T];
  const low = k.low[T];
  const volume = k.volume[T];
  out.open[i] = k.open[T];
  out.high[i] = high;
  out.low[i] = low;
  out.close[i] = close;
  out.volume[i] = volume;
  out.amount[i] = k.amount[T];

  const preClose = n >= 2 ? inBasis(closes[T - 1], adj[T - 1], adjT) : NaN;
  out.pre_close[i] = preClose;
  out.change[i] = close - preClose;
  out.change_percent[i] = ((close - preClose) / preClose) * 100;
  out.range_pct[i] = ((high - low) / preClose) * 100;

  if (n >= 6) {
    let sum = 0;
    for (let row = T - 5; row < T; row++) sum += k.volume[row];
    out.volume_ratio[i] = volume / (sum / 5);
  }
  for (let m = 0; m < MA_WINDOWS.length; m++) {
    const w = MA_WINDOWS[m];
    if (n < w) break; // windows ascend
    let sum = 0;
    for (let row = T - w + 1; row <= T; row++) sum += inBasis(closes[row], adj[row], adjT);
    out.ma[m][i] = sum / w;
  }
  for (let c = 0; c < CHG_WINDOWS.length; c++) {
    const w = CHG_WINDOWS[c];
    if (n >= w + 1) out.chg[c][i] = (close / inBasis(closes[T - w], adj[T - w], adjT) - 1) * 100;
  }
  const [year] = civilFromDays(k.date[T]);
  const lastOfEarlierYear = lowerBound(k.date, a, b, daysFromCivil(year, 1, 1)) - 1;
  if (lastOfEarlierYear >= a)
    out.chg_ytd[i] = (close / inBasis(closes[lastOfEarlierYear], adj[lastOfEarlierYear], adjT) - 1) * 100;

  // 52 weeks: rows dated after T − 365 days; null cells are skipped, the rest count.
  const highs = k.high;
  const lows = k.low;
  let max = -Infinity;
  let min = Infinity;
  for (let row = upperBound(k.date, a, b, k.date[T] - 365); row <= T; row++) {
    const h = inBasis(highs[row], adj[row], adjT);
    const l = inBasis(lows[row], adj[row], adjT);
    if (h > max) max = h;
    if (l < min) min = l;
  }
  const high52 = max === -Infinity ? NaN : max;
  out.high_52week[i] = high52;
  out.low_52week[i] = min === Infinity ? NaN : min;
  out.close_vs_ma20[i] = (close / out.ma[2][i] - 1) * 100;
  out.close_vs_52w_high[i] = (close / high52 - 1) * 100;
}
