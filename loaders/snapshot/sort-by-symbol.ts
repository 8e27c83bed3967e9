// Sorts a file's rows into (symbol, date) order, rejecting the file on a repeated pair.

import { groupRows, type GroupedRows } from './group-rows.js';
import { locateRow, type FileRef } from './read-csv.js';
import { duplicateReason } from './repeated-dates.js';
import { SnapshotError } from './snapshot-error.js';

/** Groups rows as `groupRows` does; a duplicate becomes `file:line: duplicate row for …`. */
export async function sortBySymbol(
  symbolIds: Int32Array,
  dates: Int32Array,
  rank: Int32Array,
  symbols: readonly string[],
  file: FileRef,
): Promise<GroupedRows> {
  const grouped = groupRows(symbolIds, dates, rank);
  if (grouped.duplicate !== null) {
    const { row, first } = grouped.duplicate;
    const firstLine = await locateRow(file, first);
    const line = await locateRow(file, row);
    throw new SnapshotError(file.display, line, duplicateReason(symbols[symbolIds[row]], dates[row], firstLine));
  }
  return grouped;
}
