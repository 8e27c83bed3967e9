// One symbol's fundamentals.csv rows: a record per quarter end of its history, with realistic ranges and gaps.

import { civilFromDays, daysFromCivil, formatDate } from '../../engine/calendar/days.js';
import { FUNDAMENTAL_COLUMNS, SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import type { Market } from '../../engine/markets.js';
import type { PriceTrace } from './klines.js';
import type { SymbolPlan } from './plan.js';
import type { Rng } from './prng.js';

/** Fundamental columns that apply to a market (those with an `only` list name it). */
export function fundamentalColumns(market: Market): string[] {
  return FUNDAMENTAL_COLUMNS.filter((name) => {
    const only = SNAPSHOT_COLUMNS.find((c) => c.name === name)?.only;
    return !only || only.includes(market);
  });
}

/**
 * The quarter ends within [firstDay, lastDay], ascending, then the last day: the latest record, the
 * one a snapshot reads beside the last day's quote (a quarter end's avg_price was off that day's range).
 */
function quarterEnds(firstDay: number, lastDay: number): number[] {
  const out: number[] = [];
  let [y, m] = civilFromDays(lastDay);
  m -= (m - 1) % 3; // first month of the current quarter; step back one quarter per loop
  for (;;) {
    const end = daysFromCivil(y, m, 1) - 1; // the day before a quarter starts ends the previous one
    if (end < firstDay) break;
    if (end <= lastDay) out.unshift(end);
    m -= 3;
    if (m < 1) (m += 12), y--;
  }
  if (out.length === 0 || out[out.length - 1] < lastDay) out.push(lastDay);
  return out;
}

/** Index of the last trading day on or before `day`. */
function dayIndexAtOrBefore(days: Int32Array, day: number): number {
  let lo = 0,
    hi = days.length; // first index with days[i] > day
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (days[mid] <= day) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

const money = (x: number): string => x.toFixed(2);

/** Per-symbol levels every quarter's row varies around. */
function levels(market: Market, rng: Rng) {
  const listed = market !== 'crypto' && market !== 'indices';
  const loss = listed && market !== 'etfs' && rng.chance(0.08);
  return {
    shares: market === 'indices' ? NaN : market === 'crypto' ? rng.logRange(1e7, 1e11) : rng.logRange(5e7, 2e10),
    floatShare: rng.range(0.3, 1),
    capsEmpty: market !== 'indices' && rng.chance(0.1), // the loader must derive them from close x shares
    pe:
      market === 'crypto' || market === 'etfs'
        ? NaN
        : loss
          ? -rng.range(5, 200)
          : market === 'indices'
            ? rng.range(8, 40)
            : rng.logRange(5, 80),
    pb: market === 'crypto' ? NaN : market === 'indices' ? rng.range(1, 4) : rng.logRange(0.5, 10),
    yieldPct: market === 'crypto' ? NaN : rng.chance(0.3) ? 0 : rng.range(0.2, 6),
    turnover: rng.logRange(0.1, market === 'crypto' ? 30 : 15),
    wb: rng.chance(0.4) ? 0 : rng.range(0.1, 35),
  };
}

/**
 * The fundamentals.csv rows (without header) of one symbol, one line per quarter end since its
 * first day (a point-in-time, as_of, screen on pe_ratio has a figure to read in any year) and one
 * on its last day.
 */
export function symbolFundamentals(
  market: Market,
  columns: readonly string[],
  plan: SymbolPlan,
  trace: PriceTrace,
  rng: Rng,
): string {
  const { days, first } = plan;
  const base = levels(market, rng);
  const dates = quarterEnds(days[first], days[days.length - 1]);
  if (plan.info.quoteUsd !== undefined) {
    // A coin's supply follows from an invented USD market value and its latest price.
    const latest = trace.close[dayIndexAtOrBefore(days, dates[dates.length - 1])] / 10 ** trace.decimals;
    base.shares = rng.logRange(1e8, 5e11) / (latest * plan.info.quoteUsd);
  }
  let out = '';
  for (const date of dates) {
    const at = dayIndexAtOrBefore(days, date);
    const close = trace.close[at] / 10 ** trace.decimals;
    const pe = base.pe * rng.range(0.9, 1.1);
    const volume = trace.volume[at];
    const inner = Math.round(volume * rng.range(0.35, 0.65));
    const value = (col: string): string => {
      switch (col) {
        case 'avg_price': {
          // Within the day's range, as a day's average price is.
          const scale = 10 ** trace.decimals;
          const avg = close * rng.range(0.985, 1.015);
          return Math.min(trace.high[at] / scale, Math.max(trace.low[at] / scale, avg)).toFixed(trace.decimals);
        }
        case 'inner_volume':
          return String(inner);
        case 'outer_volume':
          return String(volume - inner);
        case 'turnover_rate':
          return (base.turnover * rng.range(0.5, 1.5)).toFixed(2);
        case 'pe_ratio':
          return money(pe);
        case 'pe_fwd':
          return money(pe * (pe > 0 ? rng.range(0.75, 1) : rng.range(0.5, 1.5)));
        case 'pe_lyr':
          return money(pe * rng.range(0.85, 1.3));
        case 'pb_ratio':
          return money(base.pb * rng.range(0.9, 1.1));
        case 'dividend_ratio_ttm':
          return money(base.yieldPct);
        case 'dividend_ttm':
          return ((close * base.yieldPct) / 100).toFixed(3);
        case 'wb_ratio':
          return money(base.wb);
        case 'eps_ttm':
          return money(close / pe);
        case 'total_market_cap':
          return base.capsEmpty ? 'NaN' : money((close * base.shares) / 1e8);
        case 'circulating_market_cap':
          return base.capsEmpty ? 'NaN' : money((close * base.shares * base.floatShare) / 1e8);
        case 'total_shares':
          return String(Math.round(base.shares));
        case 'float_shares':
          return String(Math.round(base.shares * base.floatShare));
        default:
          return 'NaN';
      }
    };
    let line = `${plan.info.symbol},${formatDate(date)}`;
    for (const col of columns) {
      const text = value(col);
      // About 5 % of cells are empty, and any value that does not apply (NaN) too.
      line += rng.chance(0.05) || text === 'NaN' || !Number.isFinite(Number(text)) ? ',' : `,${text}`;
    }
    out += `${line}\n`;
  }
  return out;
}
