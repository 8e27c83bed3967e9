// `as_of` (the snapshot as a folder cut at that day would give it): the one parameter declaration and the as-of markets the detail and screen routes answer from.

import { dateText } from '../../engine/calendar/date-text.js';
import { AsOfCache } from '../../engine/dataset/as-of.js';
import type { Dataset, MarketData, SnapshotView } from '../../engine/dataset/dataset.js';
import { date } from '../params/declare.js';
import type { RequestContext } from '../route.js';
import { unknownSymbol } from './lookup.js';
import { fullGc } from '../threads/full-gc.js';

export const AS_OF = date(
  'Point in time: the snapshot as a snapshot folder holding only the rows dated on or before this day would give it (each row dated its last trading day on or before it; a symbol with no row by then is absent). ' +
    "Every column is computed from that history alone: prices and qfq moving averages in that day's basis, momentum and the 52-week range up to it, the fundamentals row in force then, so a backtest screens on what was known. " +
    'E.g. `screen?as_of=2021-06-30&min_pe_ratio=0&max_pe_ratio=15&sort=chg_20d`. On or after the latest day: as without it.',
  '2021-06-30',
);

export const DEFAULT_AS_OF_CACHE_MB = 256;

/**
 * Shared bytes of dropped as-of views (an ashare table's rows are ~1 MB) after which this
 * thread asks V8 for a (concurrent, incremental) major collection. Those SharedArrayBuffers
 * prompt none, and freed late they piled up and left the allocator's heaps fragmented.
 * Measured with the memory bench's snapshot routes only (detail, batch, screen; 30 % as_of;
 * 30,000 requests; THREADS=2, AS_OF_CACHE_MB=32): RSS peaked at +435 MB over start without
 * it, +174 MB collecting after every 16 MB (6 % more server CPU per request), +126 MB after
 * every 4 MB (26 % more).
 */
export const COLLECT_AFTER_DROPPED_BYTES = 16 * 1024 * 1024;
let droppedBytes = 0;
let collect: (() => void) | null = null;
const dropped = (bytes: number): void => {
  droppedBytes += bytes;
  if (droppedBytes < COLLECT_AFTER_DROPPED_BYTES) return;
  droppedBytes = 0;
  (collect ??= fullGc())();
};

let cache = new AsOfCache(DEFAULT_AS_OF_CACHE_MB * 1024 * 1024, dropped);

/** Sets the as-of cache's budget: once at start, from AS_OF_CACHE_MB (never read at import). */
export function setAsOfBudget(bytes: number): void {
  cache = new AsOfCache(bytes, dropped);
}

/**
 * Market `m` as of `day` (null: as it is). A view not kept yet is derived on the kernel pool
 * when there is one and the market is large enough to pay for it (then: a promise).
 */
export function marketAsOf(
  dataset: Dataset,
  m: MarketData,
  day: number | null,
  pool: RequestContext['pool'],
): SnapshotView | Promise<SnapshotView> {
  return pool === null || m.symbols.size < pool.minAsOfSymbols
    ? cache.at(dataset, m, day)
    : cache.at(dataset, m, day, pool.kernels.deriverFor(dataset));
}

/** The position of one symbol in `m`, `full` as of `day`, or 404 unknown_symbol saying why. */
export function symbolAsOf(full: MarketData, m: SnapshotView, day: number | null, text: string): number {
  const i = m.symbols.find(text);
  if (i >= 0) return i;
  const why =
    day !== null && full.symbols.find(text) >= 0 ? `has no row on or before ${dateText(day)}` : 'does not exist';
  throw unknownSymbol(m, text, 'symbol', why);
}
