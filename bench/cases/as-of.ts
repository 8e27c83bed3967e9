// as_of figures: the first screen as of a past day (the table built inline), a repeated one
// (from the as-of cache), and the memory each kept table holds, per market of the demo.

import { asOfBytes, AsOfCache, buildAsOf } from '../../engine/dataset/as-of.js';
import { type Dataset, marketsInOrder } from '../../engine/dataset/dataset.js';
import { screen } from '../../engine/queries/screen.js';

export interface AsOfFigure {
  market: string;
  symbols: number;
  day: string;
  /** Median ms to build the market as of the day and screen it (no cache). */
  firstMs: number;
  /** Median µs of a repeated screen: the cache lookup and the screen. */
  repeatedUs: number;
  tableBytes: number;
}

const QUERY = { bounds: new Map([['pe_ratio', { min: 0, max: 30 }]]), sort: 'chg_20d', descending: true, offset: 0, limit: 50 };

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Each market with symbols, as of the day `yearsBack` years before its last day. */
export function asOfFigures(dataset: Dataset, yearsBack: number, rounds: number): AsOfFigure[] {
  const figures: AsOfFigure[] = [];
  for (const m of marketsInOrder(dataset)) {
    if (m.symbols.size === 0 || m.lastDate === null) continue;
    const day = Math.max(m.firstDate!, m.lastDate - Math.round(yearsBack * 365.25));
    const first: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const t = performance.now();
      screen(buildAsOf(m, day).snapshots, QUERY);
      first.push(performance.now() - t);
    }
    const cache = new AsOfCache(1 << 30);
    cache.at(dataset, m, day);
    const repeated: number[] = [];
    for (let r = 0; r < rounds * 20; r++) {
      const t = performance.now();
      screen(cache.at(dataset, m, day).snapshots, QUERY);
      repeated.push((performance.now() - t) * 1000);
    }
    const kept = buildAsOf(m, day);
    figures.push({ market: m.market, symbols: kept.symbols.size, day: new Date(day * 86_400_000).toISOString().slice(0, 10), firstMs: median(first), repeatedUs: median(repeated), tableBytes: asOfBytes(kept) });
  }
  return figures;
}

export function formatAsOfTable(figures: AsOfFigure[]): string {
  const lines = [`  ${'market'.padEnd(8)} ${'symbols'.padStart(8)} ${'as of'.padStart(11)} ${'first (ms)'.padStart(11)} ${'again (µs)'.padStart(11)} ${'table'.padStart(9)}`];
  for (const f of figures) lines.push(`  ${f.market.padEnd(8)} ${String(f.symbols).padStart(8)} ${f.day.padStart(11)} ${f.firstMs.toFixed(1).padStart(11)} ${f.repeatedUs.toFixed(1).padStart(11)} ${`${(f.tableBytes / 1048576).toFixed(2)} MB`.padStart(9)}`);
  return lines.join('\n');
}
