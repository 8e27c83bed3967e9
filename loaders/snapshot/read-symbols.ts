// Reads one market's symbols.csv: names and market labels by symbol id.

import { indexColumns } from './header.js';
import { textCell } from './cells.js';
import { readCsv, type CsvResult } from './read-csv.js';
import { RowError } from './snapshot-error.js';
import type { SymbolRegistry } from './symbol-registry.js';

/** Labels by symbol id (ids from the registry); missing entries are null. */
export interface SymbolLabels {
  names: (string | null)[];
  marketNames: (string | null)[];
  marketTypes: (string | null)[];
  file: CsvResult;
}

export async function readSymbols(path: string, display: string, symbols: SymbolRegistry): Promise<SymbolLabels> {
  const names: (string | null)[] = [];
  const marketNames: (string | null)[] = [];
  const marketTypes: (string | null)[] = [];
  let at = { symbol: 0, name: 0, market_name: -1, market_type: -1 };
  const file = await readCsv(path, display, {
    header(columns) {
      at = indexColumns(display, columns, ['symbol', 'name'], ['market_name', 'market_type']);
    },
    row(cells, rowIndex) {
      const text = cells[at.symbol];
      if (symbols.has(text)) throw new RowError(rowIndex, `symbol: '${text}' is listed twice`);
      const id = symbols.idOf(text, rowIndex);
      names[id] = textCell(cells[at.name], 'name', rowIndex);
      marketNames[id] = at.market_name < 0 ? null : textCell(cells[at.market_name], 'market_name', rowIndex);
      marketTypes[id] = at.market_type < 0 ? null : textCell(cells[at.market_type], 'market_type', rowIndex);
    },
  });
  return { names, marketNames, marketTypes, file };
}
