// Cell readers shared by the snapshot file readers: null, number and date rules of §5.

import { INVALID_DATE, parseSnapshotDate } from '../../engine/calendar/days.js';
import { parseDecimal } from '../../engine/text/decimal.js';
import { RowError } from './snapshot-error.js';

/** A numeric cell: NaN for an empty cell (null), a RowError for anything unparsable. */
export function numberCell(text: string, column: string, rowIndex: number): number {
  if (text.length === 0) return NaN;
  const value = parseDecimal(text);
  if (value !== value) throw new RowError(rowIndex, `${column}: not a number: '${clip(text)}'`);
  return value;
}

/** A required date cell (`YYYY-MM-DD` or `YYYYMMDD`, a real calendar day) as a day number. */
export function dateCell(text: string, column: string, rowIndex: number): number {
  const days = parseSnapshotDate(text);
  if (days === INVALID_DATE) {
    throw new RowError(rowIndex, text.length === 0 ? `${column}: empty` : `${column}: not a date: '${clip(text)}'`);
  }
  return days;
}

/** A text cell: null when empty; line breaks are refused (they mean a broken row). */
export function textCell(text: string, column: string, rowIndex: number): string | null {
  const value = text.trim();
  if (/[\r\n]/.test(value)) throw new RowError(rowIndex, `${column}: line break inside the value (a row with too few cells?)`);
  return value.length === 0 ? null : value;
}

function clip(text: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return shown.replace(/[\r\n]/g, '⏎');
}
