// Computes every column of the detail snapshot from K-lines and fundamentals (decisions §6).

import { civilFromDays, daysFromCivil, INVALID_DATE } from '../calendar/days.js';
import { NUMERIC_SNAPSHOT_COLUMNS, SNAPSHOT_COLUMNS } from '../columns.js';
import { type FundamentalColumns, type KlineColumns, sharedFloat64, sharedInt32 } from '../dataset/kline-columns.js';
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
  return SNAPSHOT_COLUMNS.filter((c) => c.source === 'fundamental' && (c.only === undefined || c.only.includes(market))).map((c) => c.name);
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
export function deriveSnapshots(market: Market, k: KlineColumns, f: FundamentalColumns, asOf: number | null = null, symbols: ArrayLike<number> | null = null): SnapshotTable {
  const size = symbols === null ? k.offsets.length - 1 : symbols.length;
  const date = sharedInt32(size).fill(NO_DATE);
  const values: Record<string, Float64Array> = {};
  for (const name of NUMERIC_SNAPSHOT_COLUMNS) values[name] = sharedFloat64(size).fill(NaN);
  const supplied = fundamentalColumnsOf(market).filter((name) => name in f.columns);

  for (let i = 0; i < size; i++) {
    const s = symbols === null ? i : symbols[i];
    const a = k.offsets[s];
    const b = asOf === null ? k.offsets[s + 1] : upperBound(k.date, a, k.offsets[s + 1], asOf);
    if (b > a) {
      date[i] = k.date[b - 1];
      deriveFromKlines(k, a, b, i, values);
    }
    const latest = (asOf === null ? f.offsets[s + 1] : upperBound(f.date, f.offsets[s], f.offsets[s + 1], asOf)) - 1;
    if (latest >= f.offsets[s]) for (const name of supplied) values[name][i] = f.columns[name][latest];
    const close = values.close[i];
    if (values.total_market_cap[i] !== values.total_market_cap[i]) values.total_market_cap[i] = (close * values.total_shares[i]) / 1e8;
    if (values.circulating_market_cap[i] !== values.circulating_market_cap[i]) values.circulating_market_cap[i] = (close * values.float_shares[i]) / 1e8;
  }
  const ascending: Record<string, Uint32Array> = {};
  const descending: Record<string, Uint32Array> = {};
  for (const name of NUMERIC_SNAPSHOT_COLUMNS) {
    const column = values[name];
    for (let i = 0; i < size; i++) column[i] = Number.isFinite(column[i]) ? round4(column[i]) : NaN;
    if (asOf !== null) {
      ordered(ascending, name, () => sortOrder(column, false, sharedUint32));
      ordered(descending, name, () => sortOrder(column, true, sharedUint32));
    } else {
      ascending[name] = sortOrder(column, false, sharedUint32);
      descending[name] = sortOrder(column, true, sharedUint32);
    }
  }
  return asOf === null ? { size, date, values, ascending, descending } : { size, date, values, ascending, descending, asOf };
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

/** Fills symbol `i`'s K-line-derived columns from its rows [a, b). */
function deriveFromKlines(k: KlineColumns, a: number, b: number, i: number, out: Record<string, Float64Array>): void {
  const T = b - 1;
  const n = b - a;
  const adjT = k.adj_factor[T];
  const q = (x: number, row: number): number => x * (k.adj_factor[row] / adjT);
  const close = k.close[T];
  const high = k.high[T];
  const low = k.low[T];
  const volume = k.volume[T];
  out.open[i] = k.open[T];
  out.high[i] = high;
  out.low[i] = low;
  out.close[i] = close;
  out.volume[i] = volume;
  out.amount[i] = k.amount[T];

  const preClose = n >= 2 ? q(k.close[T - 1], T - 1) : NaN;
  out.pre_close[i] = preClose;
  out.change[i] = close - preClose;
  out.change_percent[i] = ((close - preClose) / preClose) * 100;
  out.range_pct[i] = ((high - low) / preClose) * 100;

  if (n >= 6) {
    let sum = 0;
    for (let row = T - 5; row < T; row++) sum += k.volume[row];
    out.volume_ratio[i] = volume / (sum / 5);
  }
  for (const w of MA_WINDOWS) {
    if (n < w) continue;
    let sum = 0;
    for (let row = T - w + 1; row <= T; row++) sum += q(k.close[row], row);
    out[`ma${w}`][i] = sum / w;
  }
  for (const w of CHG_WINDOWS) {
    if (n >= w + 1) out[`chg_${w}d`][i] = (close / q(k.close[T - w], T - w) - 1) * 100;
  }
  const [year] = civilFromDays(k.date[T]);
  const lastOfEarlierYear = lowerBound(k.date, a, b, daysFromCivil(year, 1, 1)) - 1;
  if (lastOfEarlierYear >= a) out.chg_ytd[i] = (close / q(k.close[lastOfEarlierYear], lastOfEarlierYear) - 1) * 100;

  // 52 weeks: rows dated after T − 365 days; null cells are skipped, the rest count.
  let max = -Infinity;
  let min = Infinity;
  for (let row = upperBound(k.date, a, b, k.date[T] - 365); row <= T; row++) {
    const h = q(k.high[row], row);
    const l = q(k.low[row], row);
    if (h > max) max = h;
    if (l < min) min = l;
  }
  out.high_52week[i] = max === -Infinity ? NaN : max;
  out.low_52week[i] = min === Infinity ? NaN : min;
  out.close_vs_ma20[i] = (close / out.ma20[i] - 1) * 100;
  out.close_vs_52w_high[i] = (close / out.high_52week[i] - 1) * 100;
}
