// Reads macro.csv: one value per (indicator, period-end date, series key).

import { MACRO_INDICATORS, type MacroIndicator } from '../../engine/columns.js';
import { formatDate } from '../../engine/calendar/days.js';
import { dateCell, numberCell, textCell } from './cells.js';
import { indexColumns } from './header.js';
import type { MacroPoint } from './parsed-snapshot.js';
import { readCsv, type CsvResult, type FileRef } from './read-csv.js';
import { RowError } from './snapshot-error.js';

const INDICATOR_ORDER = new Map<string, number>(MACRO_INDICATORS.map((name, i) => [name, i]));

export async function readMacro(file: FileRef): Promise<{ points: MacroPoint[]; file: CsvResult }> {
  const points: MacroPoint[] = [];
  const seen = new Set<string>();
  let at = { indicator: 0, date: 0, key: 0, value: 0 };
  const read = await readCsv(file, {
    header(names) {
      at = indexColumns(file.display, names, ['indicator', 'date', 'key', 'value']);
    },
    row(cells) {
      const indicator = cells[at.indicator].trim();
      if (!INDICATOR_ORDER.has(indicator))
        throw new RowError(`indicator: unknown '${indicator}' (gdp, cpi_ppi or pmi)`);
      const date = dateCell(cells[at.date], 'date');
      const key = textCell(cells[at.key], 'key');
      if (key === null) throw new RowError('key: empty');
      const id = `${indicator}\u0000${date}\u0000${key}`;
      if (seen.has(id)) throw new RowError(`duplicate value for ${indicator} ${key} on ${formatDate(date)}`);
      seen.add(id);
      const value = numberCell(cells[at.value], 'value');
      points.push({ indicator: indicator as MacroIndicator, date, key, value: value === value ? value : null });
    },
  });
  points.sort(
    (a, b) =>
      INDICATOR_ORDER.get(a.indicator)! - INDICATOR_ORDER.get(b.indicator)! ||
      a.date - b.date ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  return { points, file: read };
}
