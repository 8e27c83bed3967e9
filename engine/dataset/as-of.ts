// A market as it stood on a past day: the symbols and snapshot table a snapshot folder cut at
// that day would give (decisions §9), built from the Dataset's full history and kept in a
// byte-bounded cache.

import { deriveSnapshots } from '../kernels/derive-snapshot.js';
import type { Dataset, MarketData, SnapshotView } from './dataset.js';
import { SymbolIndex } from './symbol-index.js';

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

/**
 * The symbols and snapshot table of `m` as of `day` (its table's `asOf`). It holds none of
 * the market's own columns, so a kept one never keeps a replaced Dataset alive.
 */
export function buildAsOf(m: MarketData, day: number): SnapshotView {
  const present = symbolsOnDay(m, day);
  const pick = <T>(all: readonly T[]): T[] => Array.from(present, (s) => all[s]);
  const { labels } = m.symbols;
  const symbols = new SymbolIndex(pick(m.symbols.codes), { names: pick(labels.names), marketNames: pick(labels.marketNames), marketTypes: pick(labels.marketTypes) });
  return { market: m.market, symbols, snapshots: deriveSnapshots(m.market, m.klines, m.fundamentals, day, present) };
}

/**
 * Bytes a view may hold: its table's columns, both orders of every column (sorted only when
 * a screen reads them: counted as if all were) and ~100 bytes per symbol of index.
 */
export function asOfBytes(view: SnapshotView): number {
  const t = view.snapshots;
  let bytes = t.date.byteLength + view.symbols.size * 100;
  for (const name in t.values) bytes += t.values[name].byteLength + 2 * t.size * Uint32Array.BYTES_PER_ELEMENT;
  return bytes;
}

/**
 * Views of the data version served now, by market and day, least recently used first out
 * once their bytes pass the budget; a new version starts the cache over. One view is built
 * at most once while it stays in the cache.
 */
export class AsOfCache {
  private version: string | null = null;
  /** Kept views in use order, oldest first (a hit moves to the end). */
  private readonly kept = new Map<string, SnapshotView>();
  private bytes = 0;
  private readonly lastDates = new WeakMap<MarketData, number | null>();

  constructor(readonly budgetBytes: number) {}

  /** `m` as of `day`: `m` itself when `day` is null or on/after its last row, else the view of that day. */
  at(dataset: Dataset, m: MarketData, day: number | null): SnapshotView {
    if (day === null) return m;
    let last = this.lastDates.get(m);
    if (last === undefined) this.lastDates.set(m, (last = lastRowDate(m)));
    if (last === null || day >= last) return m;
    if (dataset.version !== this.version) {
      this.kept.clear();
      this.bytes = 0;
      this.version = dataset.version;
    }
    const key = `${m.market}|${day}`;
    const hit = this.kept.get(key);
    if (hit !== undefined) {
      this.kept.delete(key);
      this.kept.set(key, hit);
      return hit;
    }
    const built = buildAsOf(m, day);
    const size = asOfBytes(built);
    if (size > this.budgetBytes) return built; // served, not kept
    this.kept.set(key, built);
    this.bytes += size;
    for (const [oldKey, old] of this.kept) {
      if (this.bytes <= this.budgetBytes) break;
      this.kept.delete(oldKey);
      this.bytes -= asOfBytes(old);
    }
    return built;
  }
}
