// Weekly to yearly bars: one pass over a symbol's daily rows, after adjustment.

import { civilFromDays, daysFromCivil } from '../calendar/days.js';
import type { KlineColumns } from '../dataset/kline-columns.js';
import type { AdjustMode } from './adjust.js';
import { round4 } from './round.js';

export const PERIODS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type Period = (typeof PERIODS)[number];

/** Bars as columns, ascending: the K-line columns' own (element b of each belongs to bar b; NaN is null), `date` the last trading day of each bar's period, `adj_factor` that day's. */
export interface Bars extends Omit<KlineColumns, 'offsets'> {
  count: number;
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

/** The first day after the period that holds `day`: where the next bar starts. */
export function nextPeriodStart(period: Exclude<Period, 'day'>, day: number): number {
  if (period === 'week') return (Math.floor((day + 3) / 7) + 1) * 7 - 3;
  const [year, month] = civilFromDays(day);
  if (period === 'year') return daysFromCivil(year + 1, 1, 1);
  const months = period === 'month' ? 1 : 3 - ((month - 1) % 3);
  const next = month - 1 + months;
  return daysFromCivil(year + Math.floor(next / 12), (next % 12) + 1, 1);
}

/**
 * The bars of rows [from, to) of one symbol (dates ascending), each built from all its days
 * after adjustment (qfq by `baseRow`'s factor, hfq by each day's): open the first day's, high
 * the largest and low the smallest non-null, close the last day's, volume and amount the
 * decimal sums (null when every cell is), date and adj_factor the last day's. One pass: a
 * bar ends where its period does (one calendar step per bar, not per row), and only the
 * extremes are rounded, as rounding keeps order.
 */
export function periodBars(
  k: KlineColumns,
  from: number,
  to: number,
  period: Exclude<Period, 'day'>,
  adj: AdjustMode,
  baseRow: number,
): Bars {
  const { date, open, high, low, close, adj_factor: factor } = k;
  const base = adj === 'qfq' ? factor[baseRow] : 1;
  const scaleOf = (row: number): number => (adj === 'bfq' ? 1 : factor[row] / base);
  const price = (x: number, row: number): number => (adj === 'bfq' ? x : round4(x * scaleOf(row)));
  // At most one bar per shortest period of the span, plus the two it may cut.
  const shortest = { week: 7, month: 28, quarter: 90, year: 365 }[period];
  const capacity = to > from ? Math.min(to - from, Math.floor((date[to - 1] - date[from]) / shortest) + 2) : 0;
  const out = {
    date: new Int32Array(capacity),
    adj_factor: new Float64Array(capacity),
    open: new Float64Array(capacity),
    high: new Float64Array(capacity),
    low: new Float64Array(capacity),
    close: new Float64Array(capacity),
    volume: new Float64Array(capacity),
    amount: new Float64Array(capacity),
  };
  let count = 0;
  for (let first = from; first < to; count++) {
    const end = nextPeriodStart(period, date[first]);
    let last = first;
    let hi = Number.NaN;
    let lo = Number.NaN;
    for (let r = first; r < to && date[r] < end; r++) {
      last = r;
      const scale = scaleOf(r);
      const h = high[r] * scale;
      const l = low[r] * scale;
      if (h === h && !(h <= hi)) hi = h;
      if (l === l && !(l >= lo)) lo = l;
    }
    out.date[count] = date[last];
    out.adj_factor[count] = factor[last];
    out.open[count] = price(open[first], first);
    out.high[count] = adj === 'bfq' ? hi : round4(hi);
    out.low[count] = adj === 'bfq' ? lo : round4(lo);
    out.close[count] = price(close[last], last);
    out.volume[count] = decimalSum(k.volume, first, last + 1);
    out.amount[count] = decimalSum(k.amount, first, last + 1);
    first = last + 1;
  }
  return {
    count,
    date: out.date.subarray(0, count),
    adj_factor: out.adj_factor.subarray(0, count),
    open: out.open.subarray(0, count),
    high: out.high.subarray(0, count),
    low: out.low.subarray(0, count),
    close: out.close.subarray(0, count),
    volume: out.volume.subarray(0, count),
    amount: out.amount.subarray(0, count),
  };
}
