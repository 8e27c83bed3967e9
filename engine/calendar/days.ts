// Calendar dates as whole days since 1970-01-01 (Int32), parsed strictly: no rollover.

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1–12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  // Howard Hinnant's days_from_civil: shifts the year to start in March so leap days fall last.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = month > 2 ? month - 3 : month + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Year, month (1–12) and day of a day number. */
export function civilFromDays(days: number): [year: number, month: number, day: number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Sentinel returned by the parsers for text that is not a real calendar date. */
export const INVALID_DATE = -2147483648;

function digit(text: string, i: number): number {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1000000;
}

function fromParts(year: number, month: number, day: number): number {
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return INVALID_DATE;
  return daysFromCivil(year, month, day);
}

/** Strict `YYYY-MM-DD` (the API's only date form) → day number, or INVALID_DATE. */
export function parseIsoDate(text: string): number {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return INVALID_DATE;
  const year = digit(text, 0) * 1000 + digit(text, 1) * 100 + digit(text, 2) * 10 + digit(text, 3);
  const month = digit(text, 5) * 10 + digit(text, 6);
  const day = digit(text, 8) * 10 + digit(text, 9);
  return fromParts(year, month, day);
}

/** Strict `YYYY-MM-DD` or `YYYYMMDD` (both accepted in snapshot files) → day number, or INVALID_DATE. */
export function parseSnapshotDate(text: string): number {
  if (text.length === 10) return parseIsoDate(text);
  if (text.length !== 8) return INVALID_DATE;
  const year = digit(text, 0) * 1000 + digit(text, 1) * 100 + digit(text, 2) * 10 + digit(text, 3);
  const month = digit(text, 4) * 10 + digit(text, 5);
  const day = digit(text, 6) * 10 + digit(text, 7);
  return fromParts(year, month, day);
}

const TWO = Array.from({ length: 100 }, (_, i) => (i < 10 ? '0' : '') + i);

/** Day number → `YYYY-MM-DD`. */
export function formatDate(days: number): string {
  const [y, m, d] = civilFromDays(days);
  return `${y < 1000 ? String(y).padStart(4, '0') : y}-${TWO[m]}-${TWO[d]}`;
}

/** Day of the week, 0 = Sunday … 6 = Saturday. */
export function weekday(days: number): number {
  return (((days + 4) % 7) + 7) % 7;
}
