// A market as it stood on a past day: the symbols and snapshot table a snapshot folder cut at
// that day would give (decisions §9), built from the Dataset's full history and kept in a
// byte-bounded cache per Dataset.

import { deriveSnapshots, type SnapshotTable } from '../kernels/derive-snapshot.js';
import { upperBound } from '../kernels/date-range.js';
import type { Dataset, MarketData } from './dataset.js';
import { SymbolIndex } from './symbol-index.js';

/**
 * The market as of `day`. Only `symbols`, `snapshots` and the dates are of that day: its
 * `klines` and `fundamentals` stay the full columns (indexed by the full market's symbols),
 * which the detail and screen answers never read.
 */
export type AsOfMarket = MarketData & { readonly asOf: number };

/** The last day any row of `m` is dated (K-lines or fundamentals), or null without rows. */
export function lastRowDate(m: MarketData): number | null {
  let last = m.lastDate ?? -Infinity;
  const { offsets, date } = m.fundamentals;
  for (let s = 0; s + 1 < offsets.length; s++) if (offsets[s + 1] > offsets[s]) last = Math.max(last, date[offsets[s + 1] - 1]);
  return last === -Infinity ? null : last;
}

/** Positions (ascending) of the symbols with a K-line or fundamentals row dated on or before `day`. */
export function symbolsOnDay(m: MarketData, day: number): Int32Array {
  const k = m.klines;
  const f = m.fundamentals;
  const present: number[] = [];
  for (let s = 0; s < m.symbols.size; s++) {
    const hasKline = k.offsets[s + 1] > k.offsets[s] && k.date[k.offsets[s]] <= day;
    const hasFundamentals = f.offsets[s + 1] > f.offsets[s] && f.date[f.offsets[s]] <= day;
    if (hasKline || hasFundamentals) present.push(s);
  }
  return Int32Array.from(present);
}

/** Builds `m` as of `day` (before its last row; later days are `m` itself). */
export function buildAsOf(m: MarketData, day: number): AsOfMarket {
  const present = symbolsOnDay(m, day);
  const pick = <T>(all: readonly T[]): T[] => Array.from(present, (s) => all[s]);
  const { labels } = m.symbols;
  const symbols = new SymbolIndex(pick(m.symbols.codes), { names: pick(labels.names), marketNames: pick(labels.marketNames), marketTypes: pick(labels.marketTypes) });
  const snapshots: SnapshotTable = { ...deriveSnapshots(m.market, m.klines, m.fundamentals, day, present, true), asOf: day };
  let first = Infinity;
  let last = -Infinity;
  for (const s of present) {
    const a = m.klines.offsets[s];
    const b = upperBound(m.klines.date, a, m.klines.offsets[s + 1], day);
    if (b > a) (first = Math.min(first, m.klines.date[a])), (last = Math.max(last, m.klines.date[b - 1]));
  }
  return { ...m, symbols, snapshots, firstDate: first === Infinity ? null : first, lastDate: last === -Infinity ? null : last, asOf: day };
}

/**
 * Bytes an as-of market may hold: its table's columns, both orders of every column (sorted
 * only when a screen reads them: counted as if all were) and ~100 bytes per symbol of index.
 */
export function asOfBytes(m: AsOfMarket): number {
  const t: SnapshotTable = m.snapshots;
  let bytes = t.date.byteLength + m.symbols.size * 100;
  for (const name in t.values) bytes += t.values[name].byteLength + 2 * t.size * Uint32Array.BYTES_PER_ELEMENT;
  return bytes;
}

/**
 * As-of markets of the Dataset served now, least recently used first out once their bytes
 * pass the budget. One table is built at most once while it stays in the cache.
 */
export class AsOfCache {
  private readonly byDataset = new WeakMap<Dataset, Map<string, AsOfMarket>>();
  private readonly lastDates = new WeakMap<MarketData, number | null>();
  private bytes = 0;
  /** The Dataset the kept tables belong to. */
  private dataset: Dataset | null = null;
  /** Every kept table, oldest use first, across Datasets (a reload's old ones age out). */
  private readonly order = new Map<AsOfMarket, Map<string, AsOfMarket>>();
  hits = 0;
  builds = 0;

  constructor(readonly budgetBytes: number) {}

  /** `m` as of `day`: `m` itself when `day` is null or on/after its last row, else the as-of market. */
  at(dataset: Dataset, m: MarketData, day: number | null): MarketData {
    if (day === null) return m;
    let last = this.lastDates.get(m);
    if (last === undefined) this.lastDates.set(m, (last = lastRowDate(m)));
    if (last === null || day >= last) return m;
    if (dataset !== this.dataset) this.forgetAllBut(dataset);
    let kept = this.byDataset.get(dataset);
    if (kept === undefined) this.byDataset.set(dataset, (kept = new Map()));
    const key = `${m.market}|${day}`;
    const hit = kept.get(key);
    if (hit !== undefined) {
      this.hits++;
      this.order.delete(hit);
      this.order.set(hit, kept);
      return hit;
    }
    const built = buildAsOf(m, day);
    this.builds++;
    const size = asOfBytes(built);
    if (size > this.budgetBytes) return built; // served, not kept
    kept.set(key, built);
    this.order.set(built, kept);
    this.bytes += size;
    for (const [old, owner] of this.order) {
      if (this.bytes <= this.budgetBytes) break;
      this.order.delete(old);
      owner.delete(`${old.market}|${old.asOf}`);
      this.bytes -= asOfBytes(old);
    }
    return built;
  }

  /**
   * A table holds its Dataset's columns (its market's K-lines): once a reload brings a new
   * Dataset, the old one's tables go, so they never keep a replaced Dataset alive.
   */
  private forgetAllBut(dataset: Dataset): void {
    for (const [table, owner] of this.order) {
      if (owner === this.byDataset.get(dataset)) continue;
      this.order.delete(table);
      owner.delete(`${table.market}|${table.asOf}`);
      this.bytes -= asOfBytes(table);
    }
    this.dataset = dataset;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.order.size, bytes: this.bytes };
  }
}
