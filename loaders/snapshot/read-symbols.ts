// Reads one market's symbols.csv: names and market labels by symbol id.

import { indexColumns } from './header.js';
import { textCell } from './cells.js';
import { readCsv, type CsvResult, type FileRef } from './read-csv.js';
import { RowError } from './snapshot-error.js';
import type { SymbolRegistry } from './symbol-registry.js';

/** Labels by symbol id (ids from the registry); missing entries are null. */
export interface SymbolLabels {
  names: (string | null)[];
  marketNames: (string | null)[];
  marketTypes: (string | null)[];
  file: CsvResult;
}

export async function readSymbols(file: FileRef, symbols: SymbolRegistry): Promise<SymbolLabels> {
  const names: (string | null)[] = [];
  const marketNames: (string | null)[] = [];
  const marketTypes: (string | null)[] = [];
  let at = { symbol: 0, name: 0, market_name: -1, market_type: -1 };
  const read = await readCsv(file, {
    header(columns) {
      at = indexColumns(file.display, columns, ['symbol', 'name'], ['market_name', 'market_type']);
    },
    row(cells) {
      const text = cells[at.symbol];
      if (symbols.has(text)) throw new RowError(`symbol: '${text}' is listed twice`);
      const id = symbols.idOf(text);
      names[id] = textCell(cells[at.name], 'name');
      marketNames[id] = at.market_name < 0 ? null : textCell(cells[at.market_name], 'market_name');
      marketTypes[id] = at.market_type < 0 ? null : textCell(cells[at.market_type], 'market_type');
    },
  });
  return { names, marketNames, marketTypes, file: read };
}
