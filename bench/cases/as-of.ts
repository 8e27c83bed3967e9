// as_of figures: the first screen as of a past day (the table derived inline, and split across
// the kernel pool and this thread), a repeated one (from the as-of cache), and the memory each
// kept table holds, per market of the demo.

import { POOL_SOURCE_MODULE } from '../../loaders/edition/open-edition.js';
import { asOfBytes, AsOfCache, buildAsOf } from '../../engine/dataset/as-of.js';
import { type Dataset, marketsInOrder, type SnapshotView } from '../../engine/dataset/dataset.js';
import { KernelPool } from '../../engine/pool/pool.js';
import { screen } from '../../engine/queries/screen.js';

export interface AsOfFigure {
  market: string;
  symbols: number;
  day: string;
  /** Median ms to derive the market as of the day on this thread and screen it (no cache). */
  inlineMs: number;
  /** The same with the derivation split across the pool's workers and this thread. */
  poolMs: number;
  /** Median µs of a repeated screen: the cache lookup and the screen. */
  repeatedUs: number;
  tableBytes: number;
}

const QUERY = {
  bounds: new Map([['pe_ratio', { min: 0, max: 30 }]]),
  sort: 'chg_20d',
  descending: true,
  offset: 0,
  limit: 50,
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Each market with symbols, as of days around `yearsBack` years before its last day (a new day per round: nothing is kept between them). */
export async function asOfFigures(
  dataset: Dataset,
  yearsBack: number,
  rounds: number,
  poolThreads: number,
): Promise<AsOfFigure[]> {
  const pool = new KernelPool(poolThreads, POOL_SOURCE_MODULE);
  const figures: AsOfFigure[] = [];
  try {
    for (const m of marketsInOrder(dataset)) {
      if (m.symbols.size === 0 || m.lastDate === null) continue;
      const day = Math.max(m.firstDate!, m.lastDate - Math.round(yearsBack * 365.25));
      const inline: number[] = [];
      const pooled: number[] = [];
      for (let r = 0; r < rounds; r++) {
        // Alternated, so both meet the machine in the same state.
        let t = performance.now();
        screen(buildAsOf(m, day + r).snapshots, QUERY);
        inline.push(performance.now() - t);
        t = performance.now();
        screen((await buildAsOf(m, day + r, pool.deriverFor(dataset))).snapshots, QUERY);
        pooled.push(performance.now() - t);
      }
      const cache = new AsOfCache(1 << 30);
      const kept: SnapshotView = cache.at(dataset, m, day);
      const repeated: number[] = [];
      for (let r = 0; r < rounds * 20; r++) {
        const t = performance.now();
        screen(cache.at(dataset, m, day).snapshots, QUERY);
        repeated.push((performance.now() - t) * 1000);
      }
      const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
      figures.push({
        market: m.market,
        symbols: kept.symbols.size,
        day: iso,
        inlineMs: median(inline),
        poolMs: median(pooled),
        repeatedUs: median(repeated),
        tableBytes: asOfBytes(kept),
      });
    }
  } finally {
    await pool.close();
  }
  return figures;
}

export function formatAsOfTable(figures: AsOfFigure[]): string {
  const lines = [
    `  ${'market'.padEnd(8)} ${'symbols'.padStart(8)} ${'as of'.padStart(11)} ${'inline (ms)'.padStart(12)} ${'pool (ms)'.padStart(10)} ${'again (µs)'.padStart(11)} ${'table'.padStart(9)}`,
  ];
  for (const f of figures) {
    lines.push(
      `  ${f.market.padEnd(8)} ${String(f.symbols).padStart(8)} ${f.day.padStart(11)} ${f.inlineMs.toFixed(1).padStart(12)} ${f.poolMs.toFixed(1).padStart(10)} ${f.repeatedUs.toFixed(1).padStart(11)} ${`${(f.tableBytes / 1048576).toFixed(2)} MB`.padStart(9)}`,
    );
  }
  return lines.join('\n');
}
