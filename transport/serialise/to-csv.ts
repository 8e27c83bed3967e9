// CSV (RFC 4180): a header row of the row keys, one CRLF line per row, nulls as empty cells.

import type { CsvTable } from '../shapes/shape.js';

const NEEDS_QUOTES = /[",\r\n]/;
/** Text a spreadsheet would run as a formula (OWASP, CSV injection): one starting with =, +, -, @, a tab or a CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell: numbers as JSON writes them; text with a leading `'` when it would start a formula
 * (a spreadsheet then shows it as text), quoted when it holds a comma, quote or line break.
 */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(table: CsvTable): string {
  let out = `${table.columns.map(cell).join(',')}\r\n`;
  for (const row of table.rows) out += `${row.map(cell).join(',')}\r\n`;
  return out;
}
