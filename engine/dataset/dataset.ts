// The immutable Dataset every query runs on: one snapshot version of all six markets.

import { MARKETS, type Market } from '../markets.js';
import type { SnapshotTable } from '../kernels/derive-snapshot.js';
import type { FundamentalColumns, KlineColumns } from './kline-columns.js';
import type { MacroRow } from './macro-series.js';
import type { SymbolIndex } from './symbol-index.js';

/** One market of a Dataset; a market the snapshot lacks is present with no symbols. */
export interface MarketData {
  readonly market: Market;
  readonly symbols: SymbolIndex;
  readonly klines: KlineColumns;
  readonly fundamentals: FundamentalColumns;
  readonly snapshots: SnapshotTable;
  /** Every day a symbol of the market has a row, ascending, as stored with it; null from an older part (see marketCalendar). */
  readonly tradingDays: Int32Array | null;
  /** Earliest and latest K-line day of the market, or null without rows. */
  readonly firstDate: number | null;
  readonly lastDate: number | null;
}

/**
 * Where a stored market's K-lines came from: `id` names them, `appendsTo` the stored K-lines they
 * hold unchanged with only rows dated after the market's last day added (null: stored anew, any
 * row may differ). What a new edition tells of a market's history (edition-changes.ts).
 */
export interface MarketLineage {
  readonly id: string;
  readonly appendsTo: string | null;
}

/** What the snapshot answers (detail, screen) read of a market: its own, or one as of a past day (as-of.ts). */
export type SnapshotView = Pick<MarketData, 'market' | 'symbols' | 'snapshots'>;

/**
 * Built once from a stored snapshot and never mutated: a reload builds a new Dataset beside
 * this one and swaps a single reference, so a request keeps the Dataset it started with.
 */
export interface Dataset {
  /** The data version (`X-Data-Version`). */
  readonly version: string;
  readonly manifest: Readonly<Record<string, unknown>>;
  readonly markets: Readonly<Record<Market, MarketData>>;
  /** Macro rows by indicator order then date; empty when the snapshot had no macro.csv. */
  readonly macro: readonly MacroRow[];
  readonly hasMacro: boolean;
  /** Each stored market's lineage; absent for a Dataset made in memory (every market then counts as stored anew). */
  readonly lineage?: Readonly<Partial<Record<Market, MarketLineage>>>;
  /**
   * Where another thread (a pool worker) opens the same columns itself, opaque to the engine
   * (the loaders' edition reference): the columns are views of a memory map, which cannot be
   * posted without a copy. Absent for a Dataset made in memory (its columns are then posted).
   */
  readonly origin?: DatasetOrigin;
}

/** See `Dataset.origin`: `key` names the columns, `ref` is what the worker's opener reads. */
export interface DatasetOrigin {
  readonly key: string;
  readonly ref: unknown;
}

/** Market order of every listing. */
export function marketsInOrder(dataset: Dataset): MarketData[] {
  return MARKETS.map((m) => dataset.markets[m]);
}

/** Total K-line rows of the Dataset. */
export function rowCount(dataset: Dataset): number {
  return marketsInOrder(dataset).reduce((sum, m) => sum + m.klines.date.length, 0);
}
