// Turns a stored snapshot (shared columns read from LMDB) into the engine's Dataset.

import { type FundamentalColumns, type KlineColumns, sharedInt32 } from '../engine/dataset/kline-columns.js';
import type { Dataset, MarketData } from '../engine/dataset/dataset.js';
import { groupMacro } from '../engine/dataset/macro-series.js';
import { SymbolIndex } from '../engine/dataset/symbol-index.js';
import { deriveSnapshots, type SnapshotTable } from '../engine/kernels/derive-snapshot.js';
import { MARKETS, type Market } from '../engine/markets.js';
import type { StoredSnapshot } from './lmdb/from-lmdb.js';
import type { SnapshotMeta, StoredMarketMeta } from './lmdb/layout.js';

/**
 * A Dataset's heavy parts: columns and derived snapshot tables, all in shared memory, so
 * they can be made on a worker thread and posted to the main thread without a copy.
 */
export interface DatasetParts {
  meta: SnapshotMeta;
  markets: { meta: StoredMarketMeta; klines: KlineColumns; fundamentals: FundamentalColumns; snapshots: SnapshotTable }[];
}

/** Computes every market's snapshot table (decisions §6): the CPU-heavy half of opening. */
export function deriveParts(stored: StoredSnapshot): DatasetParts {
  return {
    meta: stored.meta,
    markets: stored.markets.map((m) => ({ ...m, snapshots: deriveSnapshots(m.meta.market, m.klines, m.fundamentals) })),
  };
}

function emptyMarket(market: Market): MarketData {
  const klines = { offsets: sharedInt32(1), date: sharedInt32(0) } as KlineColumns;
  for (const name of ['open', 'high', 'low', 'close', 'volume', 'amount', 'adj_factor'] as const) klines[name] = new Float64Array(0);
  const fundamentals: FundamentalColumns = { offsets: sharedInt32(1), date: sharedInt32(0), columns: {} };
  return {
    market,
    symbols: new SymbolIndex([], { names: [], marketNames: [], marketTypes: [] }),
    klines,
    fundamentals,
    snapshots: deriveSnapshots(market, klines, fundamentals),
    firstDate: null,
    lastDate: null,
  };
}

function dateSpan(klines: KlineColumns): [number | null, number | null] {
  let first = Infinity;
  let last = -Infinity;
  const { offsets, date } = klines;
  for (let i = 0; i + 1 < offsets.length; i++) {
    if (offsets[i + 1] === offsets[i]) continue;
    first = Math.min(first, date[offsets[i]]);
    last = Math.max(last, date[offsets[i + 1] - 1]);
  }
  return first === Infinity ? [null, null] : [first, last];
}

/** Builds the Dataset around its parts (symbol indexes, macro rows): light, on the serving thread. */
export function assembleDataset(parts: DatasetParts): Dataset {
  const markets = {} as Record<Market, MarketData>;
  for (const market of MARKETS) markets[market] = emptyMarket(market);
  for (const { meta, klines, fundamentals, snapshots } of parts.markets) {
    const [firstDate, lastDate] = dateSpan(klines);
    markets[meta.market] = { market: meta.market, symbols: new SymbolIndex(meta.symbols, meta), klines, fundamentals, snapshots, firstDate, lastDate };
  }
  return {
    version: parts.meta.version,
    manifest: parts.meta.manifest,
    markets,
    macro: groupMacro(parts.meta.macro),
    hasMacro: parts.meta.macro.length > 0,
  };
}

/** Both halves on this thread. */
export function buildDataset(stored: StoredSnapshot): Dataset {
  return assembleDataset(deriveParts(stored));
}
