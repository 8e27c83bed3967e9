// Where a row an edition stored came from: its file and line, found again by reading the files
// (an error path only: a part keeps rows, not their places).

import { parseSnapshotDate } from '../../engine/calendar/days.js';
import { readFileBytes } from '../snapshot/file-bytes.js';
import { readKlineLayout } from '../snapshot/kline-pieces.js';
import { LineSplitter } from '../snapshot/line-splitter.js';
import type { FileRef } from '../snapshot/read-csv.js';
import { splitCells } from '../snapshot/split-cells.js';

const FOUND = Symbol('found');

/**
 * The first line, in the market's K-line files in order, of `symbol` on `date` (null: its first
 * row, any date): `{display, line, file}` with `file` the file's place in `files`.
 */
export async function findStoredRow(
  files: FileRef[],
  symbol: string,
  date: number | null,
): Promise<{ display: string; line: number; file: number }> {
  for (let f = 0; f < files.length; f++) {
    const file = files[f];
    const { layout } = await readKlineLayout(file);
    let found = 0;
    const lines = new LineSplitter(file.limits.maxLineBytes, (text, line) => {
      if (line === 1 || text.length === 0) return;
      const cells = splitCells(text);
      if (cells[layout.symbol] === symbol && (date === null || parseSnapshotDate(cells[layout.date]) === date)) {
        found = line;
        throw FOUND;
      }
    });
    try {
      await readFileBytes(file, null, (bytes) => lines.push(bytes));
      lines.end();
    } catch (error) {
      if (error !== FOUND) throw error;
    }
    if (found > 0) return { display: file.display, line: found, file: f };
  }
  return { display: files[0]?.display ?? '?', line: 0, file: 0 };
}
