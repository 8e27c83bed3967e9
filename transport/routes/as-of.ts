// `as_of` (the snapshot as a folder cut at that day would give it): the one parameter declaration, and
// a symbol looked up as of a day (the views themselves are the server's caches': `DatasetCaches.asOf`).

import { dateText } from '../../engine/calendar/date-text.js';
import type { MarketData, SnapshotView } from '../../engine/dataset/dataset.js';
import { date } from '../params/declare.js';
import { unknownSymbol } from './lookup.js';

export const AS_OF = date(
  'Point in time: the snapshot as a snapshot folder holding only the rows dated on or before this day would give it (each row dated its last trading day on or before it; a symbol with no row by then is absent). ' +
    "Every column is computed from that history alone: prices and qfq moving averages in that day's basis, momentum and the 52-week range up to it, the fundamentals row in force then, so a backtest screens on what was known. " +
    'E.g. `screen?as_of=2021-06-30&min_pe_ratio=0&max_pe_ratio=15&sort=chg_20d`. On or after the latest day: as without it.',
  '2021-06-30',
);

/** The position of one symbol in `m`, `full` as of `day`, or 404 unknown_symbol saying why. */
export function symbolAsOf(full: MarketData, m: SnapshotView, day: number | null, text: string): number {
  const i = m.symbols.find(text);
  if (i >= 0) return i;
  const why =
    day !== null && full.symbols.find(text) >= 0 ? `has no row on or before ${dateText(day)}` : 'does not exist';
  throw unknownSymbol(m, text, 'symbol', why);
}
