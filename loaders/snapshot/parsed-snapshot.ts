// The validated content of a snapshot folder, in sorted columns, ready to store.

import type { MacroIndicator } from '../../engine/columns.js';
import type { FundamentalColumns, KlineColumns } from '../../engine/dataset/kline-columns.js';
import type { Market } from '../../engine/markets.js';

export interface ParsedMarket {
  market: Market;
  /** Canonical symbols, ascending by code unit; index i matches offsets slot i. */
  symbols: string[];
  names: (string | null)[];
  marketNames: (string | null)[];
  marketTypes: (string | null)[];
  klines: KlineColumns;
  fundamentals: FundamentalColumns;
}

export interface MacroPoint {
  indicator: MacroIndicator;
  date: number;
  key: string;
  value: number | null;
}

export interface Manifest {
  id?: string;
  created?: string;
  note?: string;
  [extra: string]: unknown;
}

export interface ParsedSnapshot {
  manifest: Manifest;
  markets: ParsedMarket[];
  /** Sorted by indicator (listing order), date, key. */
  macro: MacroPoint[];
  /** sha256 over every file's path and bytes: equal hashes mean equal snapshots. */
  contentHash: string;
  rows: number;
}
