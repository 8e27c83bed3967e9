// Weekly to yearly bars: one pass over a symbol's daily rows, after adjustment.

import { civilFromDays } from '../calendar/days.js';
import type { KlineColumns } from '../dataset/kline-columns.js';
import { type AdjustMode, adjustPrices } from './adjust.js';

export const PERIODS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type Period = (typeof PERIODS)[number];

/** The period a day (days since 1970-01-01) falls in, as a number that grows with time. */
export function periodKey(period: Exclude<Period, 'day'>, day: number): number {
  // 1970-01-01 was a Thursday: day 4 is the first Monday, so ISO weeks start where (day + 3) % 7 = 0.
  if (period === 'week') return Math.floor((day + 3) / 7);
  const [year, month] = civilFromDays(day);
  if (period === 'month') return year * 12 + month - 1;
  if (period === 'quarter') return year * 4 + Math.floor((month - 1) / 3);
  return year;
}

/** Bars as columns, ascending: element b of every array belongs to bar b. NaN is null. */
export interface Bars {
  count: number;
  /** The last trading day of each bar's period in the data. */
  date: Int32Array;
  /** That day's factor. */
  adj_factor: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  amount: Float64Array;
}

/** Decimal scales a sum is tried at: the first at which every cell is a whole number is exact. */
const SCALES = [1, 1e2, 1e4, 1e6, 1e8];

/**
 * The sum of the non-null cells [from, to) as the decimal sum of their texts would read:
 * cells with at most 8 decimals are summed as whole numbers of their scale (exact below
 * 2^53), so 0.1 + 0.2 is 0.3; otherwise a compensated sum. All null: NaN (null).
 */
export function decimalSum(values: Float64Array, from: number, to: number): number {
  let any = false;
  scales: for (const scale of SCALES) {
    let whole = 0;
    for (let r = from; r < to; r++) {
      const v = values[r];
      if (v !== v) continue;
      any = true;
      const n = Math.round(v * scale);
      if (n / scale !== v) continue scales;
      whole += n;
    }
    if (!any) return NaN;
    if (Math.abs(whole) <= Number.MAX_SAFE_INTEGER) return whole / scale;
    break;
  }
  // Neumaier's compensated sum: cells with more decimals, or sums past 2^53 units.
  let sum = 0;
  let carry = 0;
  for (let r = from; r < to; r++) {
    const v = values[r];
    if (v !== v) continue;
    const t = sum + v;
    carry += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
  }
  return sum + carry;
}

/**
 * The bars of rows [from, to) of one symbol (dates ascending), each built from all its days
 * after adjustment (qfq by `baseRow`'s factor): open the first day's, high the largest and
 * low the smallest non-null, close the last day's, volume and amount the decimal sums
 * (null when every cell is), date and adj_factor the last day's.
 */
export function periodBars(
  k: KlineColumns,
  from: number,
  to: number,
  period: Exclude<Period, 'day'>,
  adj: AdjustMode,
  baseRow: number,
): Bars {
  const n = to - from;
  const price = (field: 'open' | 'high' | 'low' | 'close'): Float64Array =>
    adj === 'bfq'
      ? k[field].subarray(from, to)
      : adjustPrices(k[field], k.adj_factor, from, to, adj, baseRow, new Float64Array(n));
  const [open, high, low, close] = [price('open'), price('high'), price('low'), price('close')];
  const volume = k.volume.subarray(from, to);
  const amount = k.amount.subarray(from, to);
  // Where each bar starts (row offsets within the slice), then one more at the end.
  const starts: number[] = [];
  let previous = Number.NaN;
  for (let r = 0; r < n; r++) {
    const key = periodKey(period, k.date[from + r]);
    if (key !== previous) starts.push(r), (previous = key);
  }
  starts.push(n);
  const count = starts.length - 1;
  const bars: Bars = {
    count,
    date: new Int32Array(count),
    adj_factor: new Float64Array(count),
    open: new Float64Array(count),
    high: new Float64Array(count),
    low: new Float64Array(count),
    close: new Float64Array(count),
    volume: new Float64Array(count),
    amount: new Float64Array(count),
  };
  for (let b = 0; b < count; b++) {
    const first = starts[b];
    const last = starts[b + 1] - 1;
    let hi = Number.NaN;
    let lo = Number.NaN;
    for (let r = first; r <= last; r++) {
      if (high[r] === high[r] && !(high[r] <= hi)) hi = high[r];
      if (low[r] === low[r] && !(low[r] >= lo)) lo = low[r];
    }
    bars.date[b] = k.date[from + last];
    bars.adj_factor[b] = k.adj_factor[from + last];
    bars.open[b] = open[first];
    bars.high[b] = hi;
    bars.low[b] = lo;
    bars.close[b] = close[last];
    bars.volume[b] = decimalSum(volume, first, last + 1);
    bars.amount[b] = decimalSum(amount, first, last + 1);
  }
  return bars;
}
