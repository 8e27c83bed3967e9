// Turns engine results (positions in shared columns) into the row objects the schemas describe.

import { dateText } from '../../engine/calendar/date-text.js';
import { type KlineField, SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import type { SnapshotView } from '../../engine/dataset/dataset.js';
import { NO_DATE } from '../../engine/kernels/derive-snapshot.js';
import type { KlineSlice } from '../../engine/queries/klines.js';

/** NaN is how columns hold null; JSON answers null. JSON writes -0 as 0, and so does every other format (x + 0 is 0 for -0). */
export const nullable = (x: number): number | null => (x === x ? x + 0 : null);

/** Rows of a K-line slice: symbol, date, the selected fields in fixed order, adj_factor. */
export function klineRows(
  slice: KlineSlice,
  symbol: string,
  fields: readonly KlineField[],
): Record<string, string | number | null>[] {
  const rows = new Array<Record<string, string | number | null>>(slice.count);
  for (let k = 0; k < slice.count; k++) {
    const row: Record<string, string | number | null> = { symbol, date: dateText(slice.date[k]) };
    for (const field of fields) row[field] = nullable(slice.values[field]![k]);
    row.adj_factor = slice.adjFactor[k];
    rows[k] = row;
  }
  return rows;
}

const KIND = new Map(SNAPSHOT_COLUMNS.map((c) => [c.name, c.kind]));

/** The snapshot of symbol `i` with the given columns (spec table order), nulls as null. */
export function snapshotRow(
  m: SnapshotView,
  i: number,
  columns: readonly string[],
): Record<string, string | number | null> {
  const row: Record<string, string | number | null> = {};
  const labels = m.symbols.labels;
  for (const name of columns) {
    switch (name) {
      case 'symbol':
        row.symbol = m.symbols.codes[i];
        break;
      case 'date':
        row.date = m.snapshots.date[i] === NO_DATE ? null : dateText(m.snapshots.date[i]);
        break;
      case 'name':
        row.name = labels.names[i] ?? null;
        break;
      case 'market_name':
        row.market_name = labels.marketNames[i] ?? null;
        break;
      case 'market_type':
        row.market_type = labels.marketTypes[i] ?? null;
        break;
      default:
        if (KIND.get(name) === 'number') row[name] = nullable(m.snapshots.values[name][i]);
    }
  }
  return row;
}
