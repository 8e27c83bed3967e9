// Reads one market's fundamentals.csv: dated rows of the snapshot columns it supplies.

import { FUNDAMENTAL_COLUMNS } from '../../engine/columns.js';
import { sharedFloat64, sharedInt32, type FundamentalColumns } from '../../engine/dataset/kline-columns.js';
import { dateCell, numberCell } from './cells.js';
import { countRows } from './count-rows.js';
import { fileLocator } from './kline-join.js';
import { permute, permuteScratch } from './group-rows.js';
import { indexColumns } from './header.js';
import { readCsv, type CsvResult, type FileRef } from './read-csv.js';
import { RepeatedDates } from './repeated-dates.js';
import { sortBySymbol } from './sort-by-symbol.js';
import type { SymbolRegistry } from './symbol-registry.js';

export interface RawFundamentals {
  symbolIds: Int32Array;
  date: Int32Array;
  columns: Record<string, Float64Array>;
  file: CsvResult;
}

/** Reads the file into columns allocated once, at the size a first pass counted. */
export async function readFundamentals(file: FileRef, symbols: SymbolRegistry): Promise<RawFundamentals> {
  const capacity = await countRows(file);
  const symbolIds = new Int32Array(capacity);
  const date = sharedInt32(capacity);
  const columns: Record<string, Float64Array> = {};
  let present: { values: Float64Array; name: string; at: number }[] = [];
  let at = { symbol: 0, date: 0 };
  const repeats = new RepeatedDates();
  let i = 0;
  const read = await readCsv(
    file,
    {
      header(names) {
        const index = indexColumns(file.display, names, ['symbol', 'date'], FUNDAMENTAL_COLUMNS);
        at = { symbol: index.symbol, date: index.date };
        present = FUNDAMENTAL_COLUMNS.filter((name) => index[name] >= 0).map((name) => ({
          values: (columns[name] = sharedFloat64(capacity)),
          name,
          at: index[name],
        }));
      },
      row(cells, line) {
        const id = (symbolIds[i] = symbols.idOf(cells[at.symbol]));
        repeats.check(id, (date[i] = dateCell(cells[at.date], 'date')), line, symbols.symbols[id]);
        for (const p of present) p.values[i] = numberCell(cells[p.at], p.name);
        i++;
      },
    },
    capacity,
  );
  for (const name of Object.keys(columns)) columns[name] = columns[name].subarray(0, i);
  return { symbolIds: symbolIds.subarray(0, i), date: date.subarray(0, i), columns, file: read };
}

/** Sorts fundamentals rows by (symbol, date) in place; a repeated (symbol, date) rejects the file. */
export async function sortFundamentals(
  raw: RawFundamentals,
  rank: Int32Array,
  symbols: readonly string[],
  file: FileRef,
): Promise<FundamentalColumns> {
  const grouped = await sortBySymbol(raw.symbolIds, raw.date, rank, symbols, fileLocator(file));
  const scratch = grouped.order === null ? null : permuteScratch(raw.symbolIds.length);
  if (scratch !== null) {
    permute(raw.date, grouped.order, scratch);
    for (const values of Object.values(raw.columns)) permute(values, grouped.order, scratch);
  }
  return { offsets: grouped.offsets, date: raw.date, columns: raw.columns };
}

/** A market with no fundamentals file: every symbol has zero rows. */
export function emptyFundamentals(symbolCount: number): FundamentalColumns {
  return { offsets: sharedInt32(symbolCount + 1), date: sharedInt32(0), columns: {} };
}
