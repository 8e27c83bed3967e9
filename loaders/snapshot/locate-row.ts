// Finds the physical line of a CSV data row; only called on the error path.

import { textChunks } from './text-chunks.js';

/**
 * 1-based line on which data row `rowIndex` (0 = first row after the header) starts,
 * counting rows as uDSV does: a row ends at a line break outside quotes, a quote opens a
 * quoted cell only at the cell's start, and blank lines between rows are skipped.
 */
export async function locateRow(path: string, rowIndex: number): Promise<number> {
  let line = 1;
  let row = -2; // becomes -1 on the header's first character, 0 on the first data row
  let atRowStart = true;
  let atCellStart = true;
  let quoted = false;
  let previous = 0;
  for await (const text of textChunks(path)) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const afterCr = previous === 13;
      previous = c;
      if (quoted) {
        if (c === 34) quoted = false; // an escaped "" reopens at the next quote: same count
        else if (c === 10) line++;
        continue;
      }
      if (c === 10 || c === 13) {
        if (!(c === 10 && afterCr)) line++; // CRLF is one break
        atRowStart = true;
        atCellStart = true;
        continue;
      }
      if (atRowStart) {
        row++;
        if (row === rowIndex) return line;
        atRowStart = false;
      }
      if (c === 34 && atCellStart) quoted = true;
      atCellStart = c === 44;
    }
  }
  return line;
}
