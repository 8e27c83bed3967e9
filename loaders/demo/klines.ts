// One symbol's K-line rows: a mean-reverting log-normal walk in integer ticks, written as CSV bytes.

import type { ByteSink } from './byte-sink.js';
import { trimmedDecimal } from './byte-sink.js';
import { DIVIDEND, scheduleActions } from './actions.js';
import type { MarketProfile, SymbolPlan } from './plan.js';
import type { Rng } from './prng.js';

/** Header of every klines.csv. */
export const KLINE_HEADER = 'symbol,date,open,high,low,close,volume,amount,adj_factor\n';

/** What the fundamentals of a symbol need from its walk; `close`/`low`/`high`/`volume` are per day index. */
export interface PriceTrace {
  /** Price decimals of the symbol (2, or more for small crypto prices). */
  decimals: number;
  /** Units per lot (volume is in lots). */
  lot: number;
  /** Last visible close in ticks, per day index (carried over suspensions; NaN before listing). */
  readonly close: Float64Array;
  /** The day's low and high in ticks, as close is (the close itself on a suspended day). */
  readonly low: Float64Array;
  readonly high: Float64Array;
  /** Visible volume per day index (0 while suspended). */
  readonly volume: Float64Array;
}

const KAPPA = 0.002; // pull of the log price back to its trend: keeps ten years of walk plausible

/** ASCII bytes of `s` into `to`; returns the length. */
function ascii(s: string, to: Uint8Array): number {
  for (let i = 0; i < s.length; i++) to[i] = s.charCodeAt(i);
  return s.length;
}

/**
 * Writes one symbol's rows (sorted by date) and fills `trace`. `dateBytes` holds "YYYY-MM-DD,"
 * (11 bytes) per day index of `plan.days`. Returns the rows written (always `plan.rows`).
 */
export function writeSymbolKlines(
  sink: ByteSink,
  plan: SymbolPlan,
  profile: MarketProfile,
  rng: Rng,
  dateBytes: Uint8Array,
  trace: PriceTrace,
): number {
  const { days, first, gaps, info } = plan;
  const n = days.length;
  const sigma = rng.range(profile.sigma[0], profile.sigma[1]);
  const drift = rng.normal() * 0.0001; // about ±25 % a decade at one sigma
  const p0 =
    info.refPrice !== undefined
      ? info.refPrice * rng.range(0.7, 1.3)
      : rng.logRange(profile.price[0], profile.price[1]);
  // Prices have 2 decimals; crypto keeps about five significant digits, up to 10 decimals for tiny prices.
  const decimals = info.quoteUsd === undefined ? 2 : Math.min(10, Math.max(2, Math.ceil(4 - Math.log10(p0))));
  const scale = 10 ** decimals;
  const lot = rng.pick(profile.lots);
  const baseVolume =
    info.quoteUsd !== undefined
      ? rng.logRange(profile.volume[0], profile.volume[1]) / (p0 * info.quoteUsd)
      : rng.logRange(profile.volume[0], profile.volume[1]);
  // Cents of amount per (tick x lot); an index's "price" is points, so its turnover uses ~12 per share.
  const cashPerTickLot = ((lot * 100) / scale) * (info.marketType === 'index' ? 12 / p0 : 1);
  const limit = profile.dailyLimit;
  const actions = scheduleActions(profile, rng, days[first], days[n - 1]);
  trace.decimals = decimals;
  trace.lot = lot;

  const prefix = new Uint8Array(info.symbol.length + 1);
  ascii(`${info.symbol},`, prefix);
  const adjBytes = new Uint8Array(24);
  let adjLen = ascii('1', adjBytes);
  let adj = 1;
  let logPrice = Math.log(p0 * scale); // log of the hfq price in ticks: continuous across actions
  let trend = logPrice;
  let prevClose = Math.max(1, Math.round(p0 * scale));
  let ev = 0,
    g = 0,
    rows = 0,
    resumed = true;
  trace.close.fill(NaN, 0, first);
  trace.low.fill(NaN, 0, first);
  trace.high.fill(NaN, 0, first);
  trace.volume.fill(0, 0, first);

  for (let i = first; i < n; i++) {
    let ref = prevClose; // yesterday's close in today's basis
    for (; ev < actions.day.length && actions.day[ev] <= days[i]; ev++) {
      if (i === first) continue;
      if (actions.kind[ev] === DIVIDEND) {
        const div = Math.round(ref * actions.value[ev]);
        if (div < 1 || div > ref * 0.3) continue;
        adj *= ref / (ref - div);
        ref -= div;
      } else {
        adj *= actions.value[ev];
        ref /= actions.value[ev];
      }
      adjLen = ascii(trimmedDecimal(adj, 6), adjBytes);
    }
    trend += drift;
    let r = drift + sigma * rng.normal() - KAPPA * (logPrice - trend);
    if (limit > 0) r = r > limit ? limit : r < -limit ? -limit : r;
    logPrice += r;
    const close = Math.max(1, Math.round(Math.exp(logPrice) / adj));
    const open = Math.max(1, Math.round(ref * (1 + sigma * 0.5 * (rng.next() + rng.next() - 1))));
    const top = open > close ? open : close;
    const bottom = open < close ? open : close;
    const high = top + Math.round(top * sigma * 0.7 * rng.next());
    const low = Math.max(1, bottom - Math.round(bottom * sigma * 0.7 * rng.next()));
    const burst = i === first ? 4 : resumed ? 2 : 1; // listing and resumption days trade heavily
    const volume = Math.round(
      baseVolume * burst * Math.exp(0.7 * (rng.next() + rng.next() + rng.next() - 1.5)) * (1 + 8 * Math.abs(r)),
    );
    prevClose = close;

    while (g < gaps.length && i >= gaps[g + 1]) g += 2;
    if (g < gaps.length && i >= gaps[g]) {
      trace.close[i] = trace.low[i] = trace.high[i] = trace.close[i - 1];
      trace.volume[i] = 0;
      resumed = true;
      continue;
    }
    resumed = false;
    trace.close[i] = close;
    trace.low[i] = low;
    trace.high[i] = high;
    trace.volume[i] = volume;
    const amount = Math.round(volume * (open + high + low + close) * 0.25 * cashPerTickLot);
    // Row: symbol,date,open,high,low,close,volume,amount,adj_factor
    sink.ensure(prefix.length + 11 + 4 * 24 + 48 + adjLen);
    sink.raw(prefix, 0, prefix.length);
    sink.raw(dateBytes, i * 11, 11);
    sink.fixed(open, decimals);
    sink.byte(44);
    sink.fixed(high, decimals);
    sink.byte(44);
    sink.fixed(low, decimals);
    sink.byte(44);
    sink.fixed(close, decimals);
    sink.byte(44);
    sink.uint(volume);
    sink.byte(44);
    sink.fixed(amount, 2);
    sink.byte(44);
    sink.raw(adjBytes, 0, adjLen);
    sink.byte(10);
    rows++;
  }
  return rows;
}
