// Sorts a file's rows into (symbol, date) order, rejecting the file on a repeated pair.

import { formatDate } from '../../engine/calendar/days.js';
import { groupRows, type GroupedRows } from './group-rows.js';
import { locateRow } from './locate-row.js';
import { SnapshotError } from './snapshot-error.js';

/** Groups rows as `groupRows` does; a duplicate becomes `file:line: duplicate row for …`. */
export async function sortBySymbol(
  symbolIds: Int32Array,
  dates: Int32Array,
  rank: Int32Array,
  symbols: readonly string[],
  path: string,
  display: string,
): Promise<GroupedRows> {
  const grouped = groupRows(symbolIds, dates, rank);
  if (grouped.duplicate !== null) {
    const { row, first } = grouped.duplicate;
    const what = `${symbols[symbolIds[row]]} on ${formatDate(dates[row])}`;
    const firstLine = await locateRow(path, first);
    throw new SnapshotError(display, await locateRow(path, row), `duplicate row for ${what} (first at line ${firstLine})`);
  }
  return grouped;
}
