// Splits one CSV line into cells: RFC 4180 quoting, strictly; a cell never spans lines.

import { RowError } from './snapshot-error.js';

const QUOTE = 34;
const COMMA = 44;

/**
 * The cells of `line`. A quote opens a quoted cell only at the cell's start, `""` inside
 * one is a quote, and the cell must close on the same line and be followed by `,` or the
 * line's end; anything else is a RowError, so a broken row can never shift into the next.
 */
export function splitCells(line: string): string[] {
  if (line.indexOf('"') < 0) return line.split(','); // nearly every row: a native split
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    if (line.charCodeAt(i) === QUOTE) {
      let value = '';
      let from = i + 1;
      for (;;) {
        const close = line.indexOf('"', from);
        if (close < 0) throw new RowError('unbalanced quote: a quoted cell does not close on its line');
        value += line.slice(from, close);
        if (line.charCodeAt(close + 1) !== QUOTE) {
          i = close + 1;
          break;
        }
        value += '"';
        from = close + 2;
      }
      cells.push(value);
      if (i === line.length) return cells;
      if (line.charCodeAt(i) !== COMMA) throw new RowError('text after a closing quote');
      i++;
    } else {
      const comma = line.indexOf(',', i);
      const cell = line.slice(i, comma < 0 ? line.length : comma);
      if (cell.indexOf('"') >= 0) throw new RowError('stray quote inside an unquoted cell');
      cells.push(cell);
      if (comma < 0) return cells;
      i = comma + 1;
    }
  }
}
