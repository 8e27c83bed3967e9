// Cell readers shared by the snapshot file readers: an empty cell is null, numbers are strict, dates YYYY-MM-DD or YYYYMMDD.

import { INVALID_DATE, parseSnapshotDate } from '../../engine/calendar/days.js';
import { parseDecimal } from '../../engine/text/decimal.js';
import { RowError } from './snapshot-error.js';

/** A numeric cell: NaN for an empty cell (null); a RowError for anything unparsable or not finite. */
export function numberCell(text: string, column: string): number {
  if (text.length === 0) return NaN;
  const value = parseDecimal(text); // NaN for `inf`, `NaN`, `1e999` and every non-decimal
  if (value !== value) throw new RowError(`${column}: not a number: '${clip(text)}'`);
  return value === 0 ? 0 : value; // `-0` stored as 0: binary formats would otherwise carry the sign
}

/** A required date cell (`YYYY-MM-DD` or `YYYYMMDD`, a real calendar day) as a day number. */
export function dateCell(text: string, column: string): number {
  const days = parseSnapshotDate(text);
  if (days === INVALID_DATE)
    throw new RowError(text.length === 0 ? `${column}: empty` : `${column}: not a date: '${clip(text)}'`);
  return days;
}

/** A text cell that is kept: null when empty; line breaks are refused (they mean a broken row). */
export function textCell(text: string, column: string): string | null {
  const value = text.trim();
  if (/[\r\n]/.test(value)) throw new RowError(`${column}: line break inside the value`);
  return value.length === 0 ? null : ownString(value);
}

/**
 * A copy of `text` that holds no reference to the text it was cut from: V8 keeps a sliced
 * string's whole parent alive (here, a 1 MiB chunk) as long as the slice lives.
 */
export function ownString(text: string): string {
  return ` ${text}`.slice(1);
}

function clip(text: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return shown.replace(/[\r\n]/g, '⏎');
}
