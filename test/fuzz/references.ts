// Reference readers shared by the fuzz suites, written from the documented rules (docs/api-notes.md, docs/operators.md) with Number() and Date, never with the engine's parsers.

export const MS_PER_DAY = 86_400_000;
/** Days since 1970-01-01 of 0000-01-01 and 9999-12-31: the days a four-digit year can name. */
export const FIRST_DAY = -719_528;
export const LAST_DAY = 2_932_896;

/** `YYYY-MM-DD` of a day number, through Date. */
export const isoOf = (day: number): string => new Date(day * MS_PER_DAY).toISOString().slice(0, 10);

/** The day number of year-month-day when it is a real calendar day, else null. setUTCFullYear, unlike Date.UTC, keeps years 0–99. */
export function dayOf(year: number, month: number, day: number): number | null {
  const t = new Date(0);
  t.setUTCFullYear(year, month - 1, day);
  if (t.getUTCFullYear() !== year || t.getUTCMonth() !== month - 1 || t.getUTCDate() !== day) return null; // rolled over
  return t.getTime() / MS_PER_DAY;
}

/** A plain decimal: sign, digits with at most one point (a digit somewhere), an optional exponent, and a finite value; else null. */
export function referenceDecimal(text: string): number | null {
  const m = /^[+-]?([0-9]*)(?:\.([0-9]*))?(?:[eE][+-]?[0-9]+)?$/.exec(text);
  if (m === null || m[1].length + (m[2] ?? '').length === 0) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}
