// A market as it stood on a past day: the symbols and snapshot table a snapshot folder cut at
// that day would give (only rows dated on or before it; docs/api-notes.md, `as_of`),
// built from the Dataset's full history and kept in a byte-bounded cache.

import { deriveSnapshots, type SnapshotTable } from '../kernels/derive-snapshot.js';
import type { Dataset, MarketData, SnapshotView } from './dataset.js';
import { sharedInt32 } from './kline-columns.js';
import { SymbolIndex } from './symbol-index.js';

/** The last day any row of `m` is dated (K-lines or fundamentals), or null without rows. */
export function lastRowDate(m: MarketData): number | null {
  let last = m.lastDate ?? -Infinity;
  const { offsets, date } = m.fundamentals;
  for (let s = 0; s + 1 < offsets.length; s++)
    if (offsets[s + 1] > offsets[s]) last = Math.max(last, date[offsets[s + 1] - 1]);
  return last === -Infinity ? null : last;
}

/** Positions (ascending, in shared memory) of the symbols with a K-line or fundamentals row dated on or before `day`. */
export function symbolsOnDay(m: MarketData, day: number): Int32Array {
  const k = m.klines;
  const f = m.fundamentals;
  const present: number[] = [];
  for (let s = 0; s < m.symbols.size; s++) {
    const hasKline = k.offsets[s + 1] > k.offsets[s] && k.date[k.offsets[s]] <= day;
    const hasFundamentals = f.offsets[s + 1] > f.offsets[s] && f.date[f.offsets[s]] <= day;
    if (hasKline || hasFundamentals) present.push(s);
  }
  const shared = sharedInt32(present.length);
  shared.set(present);
  return shared;
}

/** Markets with fewer symbols derive an as-of table inline even where a kernel pool runs: see the bench's as-of part. */
export const MIN_POOLED_AS_OF_SYMBOLS = 1_000;

/** Derives the table of `m` as of `day` over the market positions `symbols`: inline (deriveSnapshots) or on the kernel pool. */
export type DeriveAsOf = (m: MarketData, day: number, symbols: Int32Array) => SnapshotTable | Promise<SnapshotTable>;

const inline: DeriveAsOf = (m, day, symbols) => deriveSnapshots(m.market, m.klines, m.fundamentals, day, symbols);

/**
 * The symbols and snapshot table of `m` as of `day` (its table's `asOf`). It holds none of
 * the market's own columns, so a kept one never keeps a replaced Dataset alive.
 */
export function buildAsOf(m: MarketData, day: number): SnapshotView;
export function buildAsOf(m: MarketData, day: number, derive: DeriveAsOf): SnapshotView | Promise<SnapshotView>;
export function buildAsOf(
  m: MarketData,
  day: number,
  derive: DeriveAsOf = inline,
): SnapshotView | Promise<SnapshotView> {
  const present = symbolsOnDay(m, day);
  const pick = <T>(all: readonly T[]): T[] => Array.from(present, (s) => all[s]);
  const { labels } = m.symbols;
  const symbols = new SymbolIndex(
    pick(m.symbols.codes),
    {
      names: pick(labels.names),
      marketNames: pick(labels.marketNames),
      marketTypes: pick(labels.marketTypes),
    },
    m.market,
  );
  const table = derive(m, day, present);
  return table instanceof Promise
    ? table.then((snapshots) => ({ market: m.market, symbols, snapshots }))
    : { market: m.market, symbols, snapshots: table };
}

/**
 * Resident bytes a view's symbol index holds per symbol: its two Map entries, its alias keys
 * (two for a mainland code, each with its positions), lower-cased code and name, and four label
 * arrays' slots, with V8's heap room (measured with 3,000 ashare codes, Node 20: ~379 bytes of
 * heap per symbol, the heap about twice that).
 */
const INDEX_BYTES_PER_SYMBOL = 750;

/**
 * Bytes a view may hold: its table's columns, both orders of every column (sorted only when
 * a screen reads them: counted as if all were) and its symbol index.
 */
export function asOfBytes(view: SnapshotView): number {
  const t = view.snapshots;
  let bytes = t.date.byteLength + view.symbols.size * INDEX_BYTES_PER_SYMBOL;
  for (const name in t.values) bytes += t.values[name].byteLength + 2 * t.size * Uint32Array.BYTES_PER_ELEMENT;
  return bytes;
}

/**
 * Bytes of a view in SharedArrayBuffers, which V8 does not count as the thread's memory: its
 * table's rows (one buffer). The screen orders sorted on first read (a few per view, 4 bytes
 * a row each) are left out.
 */
export const sharedBytes = (view: SnapshotView): number => view.snapshots.date.buffer.byteLength;

/**
 * Views of the Dataset served now, by market and day, least recently used first out once
 * their bytes pass the budget; another Dataset (a reload) starts the cache over. One view is built
 * at most once while it stays in the cache: requests arriving while it is being built on the
 * pool wait for that build.
 */
export class AsOfCache {
  /** The Dataset the views are of (weakly: a replaced one is let go even before the next as_of). */
  private served: WeakRef<Dataset> | null = null;
  /** Kept views in use order, oldest first (a hit moves to the end). */
  private readonly kept = new Map<string, SnapshotView>();
  private readonly building = new Map<string, Promise<SnapshotView>>();
  private bytes = 0;
  private readonly lastDates = new WeakMap<MarketData, number | null>();

  /**
   * @param dropped told the shared bytes (sharedBytes) of views let go: evicted, served without
   *   being kept, or cleared for another Dataset. V8 does not count them as the thread's
   *   memory: nothing else prompts the collection that frees them, and dropped tables piled
   *   up (hundreds of MB under varied as_of days).
   */
  constructor(
    readonly budgetBytes: number,
    private readonly dropped: (bytes: number) => void = () => {},
  ) {}

  /**
   * `m` as of `day`: `m` itself when `day` is null or on/after its last row, else the view of
   * that day, built by `derive` when not kept (a promise when `derive` answers later).
   */
  at(dataset: Dataset, m: MarketData, day: number | null): SnapshotView;
  at(dataset: Dataset, m: MarketData, day: number | null, derive: DeriveAsOf): SnapshotView | Promise<SnapshotView>;
  at(
    dataset: Dataset,
    m: MarketData,
    day: number | null,
    derive: DeriveAsOf = inline,
  ): SnapshotView | Promise<SnapshotView> {
    if (day === null) return m;
    let last = this.lastDates.get(m);
    if (last === undefined) this.lastDates.set(m, (last = lastRowDate(m)));
    if (last === null || day >= last) return m;
    if (this.served?.deref() !== dataset) {
      if (this.kept.size > 0) this.dropped([...this.kept.values()].reduce((n, view) => n + sharedBytes(view), 0));
      this.kept.clear();
      this.building.clear();
      this.bytes = 0;
      this.served = new WeakRef(dataset);
    }
    const key = `${m.market}|${day}`;
    const kept = this.kept.get(key);
    if (kept !== undefined) {
      this.kept.delete(key); // to the newest end
      this.kept.set(key, kept);
      return kept;
    }
    const building = this.building.get(key);
    if (building !== undefined) return building;
    const built = buildAsOf(m, day, derive);
    if (!(built instanceof Promise)) return this.keep(key, built);
    const pending = built.then(
      (view) => {
        if (this.building.get(key) !== pending) return (this.dropped(sharedBytes(view)), view); // another Dataset came in between: serve, keep nothing
        this.building.delete(key);
        return this.keep(key, view);
      },
      (error: unknown) => {
        if (this.building.get(key) === pending) this.building.delete(key);
        throw error;
      },
    );
    this.building.set(key, pending);
    return pending;
  }

  private keep(key: string, view: SnapshotView): SnapshotView {
    const size = asOfBytes(view);
    if (size > this.budgetBytes) return (this.dropped(sharedBytes(view)), view); // served, not kept
    this.kept.set(key, view);
    this.bytes += size;
    let letGo = 0;
    for (const [oldKey, old] of this.kept) {
      if (this.bytes <= this.budgetBytes) break;
      this.kept.delete(oldKey);
      this.bytes -= asOfBytes(old);
      letGo += sharedBytes(old);
    }
    if (letGo > 0) this.dropped(letGo);
    return view;
  }
}
