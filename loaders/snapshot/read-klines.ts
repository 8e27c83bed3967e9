// Reads one market's klines.csv into sorted columns, enforcing every §5 rule on the way.

import { float64Columns, GrowableColumns } from './growable.js';
import { indexColumns } from './header.js';
import { dateCell, numberCell } from './cells.js';
import { permute } from './group-rows.js';
import { sortBySymbol } from './sort-by-symbol.js';
import { KLINE_VALUE_COLUMNS, type KlineColumns } from '../../engine/dataset/kline-columns.js';
import { readCsv, type CsvResult } from './read-csv.js';
import { RowError } from './snapshot-error.js';
import type { SymbolRegistry } from './symbol-registry.js';

const PRICES = ['open', 'high', 'low', 'close', 'volume', 'amount'] as const;

/** Unsorted K-line rows as read, with the symbol id of each row. */
export interface RawKlines {
  symbolIds: Int32Array;
  date: Int32Array;
  values: Record<(typeof KLINE_VALUE_COLUMNS)[number], Float64Array>;
  file: CsvResult;
}

/** Reads `path`; the registry learns every symbol met. `sizeHint` is the file's byte size. */
const PROGRESS_EVERY = 1 << 17;

export async function readKlines(path: string, display: string, symbols: SymbolRegistry, sizeHint: number, onRows: (rows: number) => void = () => {}): Promise<RawKlines> {
  const capacity = estimateRows(sizeHint);
  const growable = new GrowableColumns(
    { symbolIds: new Int32Array(capacity), date: new Int32Array(capacity), ...float64Columns(KLINE_VALUE_COLUMNS, capacity) },
    capacity,
  );
  let at = { symbol: 0, date: 0, open: 0, high: 0, low: 0, close: 0, volume: 0, amount: 0, adj: -1 };
  const file = await readCsv(path, display, {
    header(names) {
      const index = indexColumns(display, names, ['symbol', 'date', ...PRICES], ['adj_factor']);
      at = { ...index, adj: index.adj_factor };
    },
    row(cells, rowIndex) {
      const i = growable.next();
      const c = growable.columns;
      c.symbolIds[i] = symbols.idOf(cells[at.symbol], rowIndex);
      c.date[i] = dateCell(cells[at.date], 'date', rowIndex);
      c.open[i] = numberCell(cells[at.open], 'open', rowIndex);
      const high = (c.high[i] = numberCell(cells[at.high], 'high', rowIndex));
      const low = (c.low[i] = numberCell(cells[at.low], 'low', rowIndex));
      c.close[i] = numberCell(cells[at.close], 'close', rowIndex);
      const volume = (c.volume[i] = numberCell(cells[at.volume], 'volume', rowIndex));
      c.amount[i] = numberCell(cells[at.amount], 'amount', rowIndex);
      const adj = at.adj < 0 ? NaN : numberCell(cells[at.adj], 'adj_factor', rowIndex);
      c.adj_factor[i] = adj !== adj ? 1 : adj; // empty or absent means 1
      if (high < low) throw new RowError(rowIndex, `high ${high} is below low ${low}`);
      if (volume < 0) throw new RowError(rowIndex, `volume: negative (${volume})`);
      if (adj <= 0) throw new RowError(rowIndex, `adj_factor: must be positive (${adj})`);
      if ((i & (PROGRESS_EVERY - 1)) === PROGRESS_EVERY - 1) onRows(PROGRESS_EVERY);
    },
  });
  onRows(growable.length % PROGRESS_EVERY);
  const { symbolIds, date, ...values } = growable.trimmed();
  return { symbolIds, date, values, file };
}

/** Sorts raw rows into the market's symbol order; a duplicate (symbol, date) rejects the file. */
export async function sortKlines(raw: RawKlines, rank: Int32Array, symbols: readonly string[], path: string, display: string): Promise<KlineColumns> {
  const grouped = await sortBySymbol(raw.symbolIds, raw.date, rank, symbols, path, display);
  const block = { offsets: grouped.offsets, date: permute(raw.date, grouped.order) } as KlineColumns;
  for (const name of KLINE_VALUE_COLUMNS) block[name] = permute(raw.values[name], grouped.order);
  return block;
}

/** A first guess at the row count from the file size (about 60 bytes a row), to limit regrowth. */
function estimateRows(bytes: number): number {
  return Math.max(1024, Math.ceil(bytes / 60));
}
