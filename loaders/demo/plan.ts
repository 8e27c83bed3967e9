// What the demo holds per market: size, price behaviour, and each symbol's listing day and suspensions.

import { MARKETS, type Market } from '../../engine/markets.js';
import { historyStart, tradingDays, type CalendarFamily } from './calendars.js';
import { Rng, STREAM, streamSeed } from './prng.js';
import { universe, type SymbolInfo } from './universe.js';

/** How one market's symbols look and move. */
export interface MarketProfile {
  /** Full-size symbol count (the spec's Markets table). */
  readonly count: number;
  /** Share of symbols listing inside the window rather than before it. */
  readonly lateListing: number;
  /** A few symbols with fewer than 60, and a couple with fewer than 5, rows. */
  readonly shortHistories: boolean;
  /** Share of symbols with one to three suspensions (no rows for days or weeks). */
  readonly suspensions: number;
  /** Range of daily log-return volatility. */
  readonly sigma: readonly [number, number];
  /** Start price range (log-uniform) when the universe gives no reference price. */
  readonly price: readonly [number, number];
  /** Range of typical daily volume, in lots (log-uniform); crypto: of daily turnover in USD. */
  readonly volume: readonly [number, number];
  /** Lot sizes (units per lot) to pick from. */
  readonly lots: readonly number[];
  /** Largest daily move as a log return (exchange price limits); 0: none. */
  readonly dailyLimit: number;
  /** Share of symbols paying cash dividends, and when in the year they go ex. */
  readonly dividends: number;
  readonly payMonths: readonly number[];
  /** Chance of one split or bonus issue in a symbol's history, and the ratios drawn from. */
  readonly splits: number;
  readonly splitRatios: readonly number[];
}

const NONE: readonly number[] = [];

/** The six market profiles. */
export const PROFILES: Readonly<Record<Market, MarketProfile>> = {
  ashare: {
    count: 3000,
    lateListing: 0.06,
    shortHistories: true,
    suspensions: 0.12,
    sigma: [0.015, 0.035],
    price: [3, 80],
    volume: [2e4, 2e6],
    lots: [100],
    dailyLimit: 0.095,
    dividends: 0.7,
    payMonths: [6],
    splits: 0.12,
    splitRatios: [1.3, 1.5, 2],
  },
  hkstock: {
    count: 1000,
    lateListing: 0.05,
    shortHistories: true,
    suspensions: 0.08,
    sigma: [0.012, 0.04],
    price: [0.5, 400],
    volume: [1e3, 2e5],
    lots: [100, 200, 400, 500, 1000, 2000],
    dailyLimit: 0,
    dividends: 0.6,
    payMonths: [5, 9],
    splits: 0.05,
    splitRatios: [2, 5, 10],
  },
  usstock: {
    count: 2000,
    lateListing: 0.06,
    shortHistories: true,
    suspensions: 0.03,
    sigma: [0.012, 0.04],
    price: [5, 500],
    volume: [5e3, 5e5],
    lots: [100],
    dailyLimit: 0,
    dividends: 0.5,
    payMonths: [2, 5, 8, 11],
    splits: 0.08,
    splitRatios: [2, 3, 4],
  },
  crypto: {
    count: 100,
    lateListing: 0.15,
    shortHistories: false,
    suspensions: 0,
    sigma: [0.03, 0.06],
    price: [0.1, 100],
    volume: [1e6, 1e9],
    lots: [1],
    dailyLimit: 0,
    dividends: 0,
    payMonths: NONE,
    splits: 0,
    splitRatios: NONE,
  },
  indices: {
    count: 15,
    lateListing: 0,
    shortHistories: false,
    suspensions: 0,
    sigma: [0.009, 0.015],
    price: [1000, 10000],
    volume: [5e7, 4e8],
    lots: [100],
    dailyLimit: 0,
    dividends: 0,
    payMonths: NONE,
    splits: 0,
    splitRatios: NONE,
  },
  etfs: {
    count: 11,
    lateListing: 0.2,
    shortHistories: false,
    suspensions: 0,
    sigma: [0.008, 0.02],
    price: [2, 6],
    volume: [1e5, 5e6],
    lots: [100],
    dailyLimit: 0.095,
    dividends: 0.3,
    payMonths: [1],
    splits: 0,
    splitRatios: NONE,
  },
};

/** One symbol of the demo: identity, first trading day and suspensions. */
export interface SymbolPlan {
  /** Position in the full-size universe: seeds the symbol's streams, so scale never changes its data. */
  readonly index: number;
  readonly info: SymbolInfo;
  /** Trading days of the symbol's calendar (shared by its family). */
  readonly days: Int32Array;
  /** Index into `days` of the first row. */
  readonly first: number;
  /** Suspensions as flat [from, to) pairs of day indices: ascending, disjoint, after `first`. */
  readonly gaps: readonly number[];
  /** K-line rows the symbol will have. */
  readonly rows: number;
}

/** One market of the demo at a given seed, scale and history length. */
export interface MarketPlan {
  readonly market: Market;
  readonly marketIndex: number;
  readonly profile: MarketProfile;
  /** Symbols in symbol order (the order files are written in). */
  readonly symbols: readonly SymbolPlan[];
  readonly rows: number;
}

/** Options every part of the generator derives its output from. */
export interface PlanOptions {
  readonly seed: number;
  readonly symbolScale: number;
  readonly years: number;
}

function listing(profile: MarketProfile, index: number, n: number, rng: Rng): number {
  if (profile.shortHistories && index % 1000 === 777) return Math.max(0, n - rng.int(1, 4));
  if (profile.shortHistories && index % 100 === 42) return Math.max(0, n - rng.int(10, 59));
  if (n > 120 && rng.chance(profile.lateListing)) return rng.int(1, n - 60);
  return 0;
}

function suspensions(profile: MarketProfile, first: number, n: number, rng: Rng): number[] {
  if (n - first < 120 || !rng.chance(profile.suspensions)) return [];
  const spans: [number, number][] = [];
  for (let k = rng.int(1, 3); k > 0; k--) {
    const len = rng.chance(0.7) ? rng.int(1, 10) : rng.int(10, 60);
    const from = rng.int(first + 1, n - 2 - len); // never the first or the last day
    spans.push([from, from + len]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  const flat: number[] = [];
  for (const [from, to] of spans) {
    const last = flat.length - 1;
    if (last > 0 && from <= flat[last])
      flat[last] = Math.max(flat[last], to); // overlapping: merge
    else flat.push(from, to);
  }
  return flat;
}

/** Plans one market: deterministic for (market, seed, scale, years), in any thread. */
export function planMarket(market: Market, opts: PlanOptions): MarketPlan {
  const marketIndex = MARKETS.indexOf(market);
  const profile = PROFILES[market];
  const start = historyStart(opts.years);
  const calendars = new Map<CalendarFamily, Int32Array>();
  const count = Math.min(profile.count, Math.max(1, Math.round(profile.count * opts.symbolScale)));
  const symbols = universe(market, profile.count, opts.seed)
    .slice(0, count)
    .map((info, index): SymbolPlan => {
      let days = calendars.get(info.family);
      if (!days) calendars.set(info.family, (days = tradingDays(info.family, start)));
      const rng = new Rng(streamSeed(opts.seed, marketIndex, index, STREAM.plan));
      const first = listing(profile, index, days.length, rng);
      const gaps = suspensions(profile, first, days.length, rng);
      let rows = days.length - first;
      for (let g = 0; g < gaps.length; g += 2) rows -= gaps[g + 1] - gaps[g];
      return { index, info, days, first, gaps, rows };
    });
  symbols.sort((a, b) => (a.info.symbol < b.info.symbol ? -1 : a.info.symbol > b.info.symbol ? 1 : 0));
  return { market, marketIndex, profile, symbols, rows: symbols.reduce((s, p) => s + p.rows, 0) };
}
