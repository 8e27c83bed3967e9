// What a new edition changed per market against the one before: the days and rows it added, and the symbols whose latest adj_factor moved.

import type { Dataset, MarketData } from '../dataset/dataset.js';
import { upperBound } from '../kernels/date-range.js';
import { MARKETS } from '../markets.js';
import { marketCalendar } from './calendar.js';

/**
 * One market an edition changed. A market whose stored part the two editions share (the same
 * MarketData: its files did not change) is not one, nor one absent from both. "Added" means dated after the market's last
 * day before the edition: a row corrected or inserted at an earlier date is a change of the
 * market but not an added row, and a market that had no rows before adds no days (its history
 * arrived whole: nothing in it is "new days").
 */
export interface MarketChange {
  readonly before: MarketData;
  readonly after: MarketData;
  /** The market's last day before the edition; null when it had no rows. */
  readonly lastBefore: number | null;
  /** Days of the market's calendar after `lastBefore`, ascending (none when `lastBefore` is null). A view of the calendar. */
  readonly daysAdded: Int32Array;
  /** K-line rows dated after `lastBefore` (every row when the market had none before). */
  readonly rowsAdded: number;
  /**
   * Whether its K-lines up to `lastBefore` may differ from what `before` held (a row corrected,
   * inserted at an earlier date or withdrawn): true unless the market's K-lines were stored as
   * `before`'s with only later rows appended (Dataset.lineage). False for a market that had none.
   */
  readonly historyChanged: boolean;
}

/** The markets `after` changed against `before`, in market order. */
export function editionChanges(before: Dataset, after: Dataset): MarketChange[] {
  const changes: MarketChange[] = [];
  for (const market of MARKETS) {
    const [b, a] = [before.markets[market], after.markets[market]];
    if (a === b || (isEmpty(a) && isEmpty(b))) continue; // a market absent from both is made anew with each edition
    const lastBefore = b.lastDate;
    const days = marketCalendar(a);
    const daysAdded =
      lastBefore === null ? days.subarray(0, 0) : days.subarray(upperBound(days, 0, days.length, lastBefore));
    let rowsAdded = 0;
    if (lastBefore === null) rowsAdded = a.klines.date.length;
    else if (daysAdded.length > 0)
      for (let i = 0; i < a.symbols.size; i++) {
        const { from, to } = addedRows(a, lastBefore, i);
        rowsAdded += to - from;
      }
    const appendsTo = after.lineage?.[market]?.appendsTo;
    const kept = appendsTo != null && appendsTo === before.lineage?.[market]?.id;
    changes.push({
      before: b,
      after: a,
      lastBefore,
      daysAdded,
      rowsAdded,
      historyChanged: lastBefore !== null && !kept,
    });
  }
  return changes;
}

const isEmpty = (m: MarketData): boolean => m.symbols.size === 0 && m.klines.date.length === 0;

/** Rows [from, to) of symbol `i` of `m` dated after `lastBefore` (absolute positions in the market's columns). */
export function addedRows(m: MarketData, lastBefore: number, i: number): { from: number; to: number } {
  const { date, offsets } = m.klines;
  const to = offsets[i + 1];
  // Most symbols end at or before lastBefore: one comparison, not a search.
  if (to === offsets[i] || date[to - 1] <= lastBefore) return { from: to, to };
  return { from: upperBound(date, offsets[i], to, lastBefore), to };
}

/**
 * True when symbol `i` of the changed market has a latest adj_factor other than its latest
 * before the edition (its qfq history moved). A symbol new in the edition has no history to
 * re-fetch: false.
 */
export function factorChanged(change: MarketChange, i: number): boolean {
  const { before, after } = change;
  const k = after.klines;
  const end = k.offsets[i + 1];
  if (end === k.offsets[i]) return false;
  const was = before.symbols.find(after.symbols.codes[i]);
  if (was < 0) return false;
  const wasEnd = before.klines.offsets[was + 1];
  if (wasEnd === before.klines.offsets[was]) return false;
  return k.adj_factor[end - 1] !== before.klines.adj_factor[wasEnd - 1];
}
