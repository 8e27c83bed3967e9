// Reads one market's fundamentals.csv: dated rows of the snapshot columns it supplies.

import { FUNDAMENTAL_COLUMNS } from '../../engine/columns.js';
import { dateCell, numberCell } from './cells.js';
import { float64Columns, GrowableColumns } from './growable.js';
import { permute } from './group-rows.js';
import { sortBySymbol } from './sort-by-symbol.js';
import { indexColumns } from './header.js';
import type { FundamentalColumns } from '../../engine/dataset/kline-columns.js';
import { readCsv, type CsvResult } from './read-csv.js';
import type { SymbolRegistry } from './symbol-registry.js';

export interface RawFundamentals {
  symbolIds: Int32Array;
  date: Int32Array;
  columns: Record<string, Float64Array>;
  file: CsvResult;
}

export async function readFundamentals(path: string, display: string, symbols: SymbolRegistry): Promise<RawFundamentals> {
  let present: { name: string; at: number }[] = [];
  let at = { symbol: 0, date: 0 };
  const growable = new GrowableColumns({ symbolIds: new Int32Array(1024), date: new Int32Array(1024) } as Record<string, Int32Array | Float64Array>, 1024);
  const file = await readCsv(path, display, {
    header(names) {
      const index = indexColumns(display, names, ['symbol', 'date'], FUNDAMENTAL_COLUMNS);
      at = { symbol: index.symbol, date: index.date };
      present = FUNDAMENTAL_COLUMNS.filter((name) => index[name] >= 0).map((name) => ({ name, at: index[name] }));
      Object.assign(growable.columns, float64Columns(present.map((p) => p.name), 1024));
    },
    row(cells, rowIndex) {
      const i = growable.next();
      const c = growable.columns;
      c.symbolIds[i] = symbols.idOf(cells[at.symbol], rowIndex);
      c.date[i] = dateCell(cells[at.date], 'date', rowIndex);
      for (const p of present) c[p.name][i] = numberCell(cells[p.at], p.name, rowIndex);
    },
  });
  const { symbolIds, date, ...columns } = growable.trimmed();
  return { symbolIds: symbolIds as Int32Array, date: date as Int32Array, columns: columns as Record<string, Float64Array>, file };
}

/** Sorts fundamentals rows by (symbol, date); a repeated (symbol, date) rejects the file. */
export async function sortFundamentals(raw: RawFundamentals, rank: Int32Array, symbols: readonly string[], path: string, display: string): Promise<FundamentalColumns> {
  const grouped = await sortBySymbol(raw.symbolIds, raw.date, rank, symbols, path, display);
  const columns: Record<string, Float64Array> = {};
  for (const [name, values] of Object.entries(raw.columns)) columns[name] = permute(values, grouped.order);
  return { offsets: grouped.offsets, date: permute(raw.date, grouped.order), columns };
}

/** A market with no fundamentals file: every symbol has zero rows. */
export function emptyFundamentals(symbolCount: number): FundamentalColumns {
  return { offsets: new Int32Array(symbolCount + 1), date: new Int32Array(0), columns: {} };
}
