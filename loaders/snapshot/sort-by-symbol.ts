// Sorts a market's rows into (symbol, date) order, rejecting a repeated pair with both its places.

import { groupRows, type GroupedRows } from './group-rows.js';
import type { RowLocator } from './kline-join.js';
import { duplicateReason } from './repeated-dates.js';
import { SnapshotError } from './snapshot-error.js';

/**
 * Groups rows as `groupRows` does; a duplicate becomes `file:line: duplicate row for …` at the
 * later row, naming the first (`first at line N` in the same file, `first at file:N` in another).
 */
export async function sortBySymbol(
  symbolIds: Int32Array,
  dates: Int32Array,
  rank: Int32Array,
  symbols: readonly string[],
  locate: RowLocator,
): Promise<GroupedRows> {
  const grouped = groupRows(symbolIds, dates, rank);
  if (grouped.duplicate !== null) {
    const { row, first } = grouped.duplicate;
    const earlier = await locate(first);
    const later = await locate(row);
    const sameFile = earlier.display === later.display;
    throw new SnapshotError(
      later.display,
      later.line,
      duplicateReason(symbols[symbolIds[row]], dates[row], earlier.line, sameFile ? null : earlier.display),
    );
  }
  return grouped;
}
