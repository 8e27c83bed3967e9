// Parameter rules: each turns one raw query value into a typed value or throws a 400 problem.

import { INVALID_DATE, parseIsoDate } from '../../engine/calendar/days.js';
import { parseDecimal } from '../../engine/text/decimal.js';
import { badParam } from '../problem.js';

/** A rule reads the raw value (undefined when absent) of parameter `name`. */
export type Rule<T> = (raw: string | undefined, name: string) => T;

const DIGITS = /^[0-9]+$/;

/** A base-10 integer of digits only, at least `min`; `fallback` when absent. */
export const integer =
  (fallback: number, min: number): Rule<number> =>
  (raw, name) => {
    if (raw === undefined) return fallback;
    if (!DIGITS.test(raw)) throw badParam(name, `must be a whole number of digits only, got '${raw}'`);
    // Past 2^53 a count means "all of it": cap it so answers echo an exact JSON integer.
    const value = Math.min(Number(raw), Number.MAX_SAFE_INTEGER);
    if (value < min) throw badParam(name, `must be at least ${min}, got ${value}`);
    return value;
  };

/** A real calendar date `YYYY-MM-DD` as days since 1970-01-01, or null when absent. */
export const optionalDate: Rule<number | null> = (raw, name) => {
  if (raw === undefined) return null;
  const days = parseIsoDate(raw);
  if (days === INVALID_DATE) throw badParam(name, `must be a real date YYYY-MM-DD, got '${raw}'`);
  return days;
};

/** A four-digit year, or null when absent. */
export const optionalYear: Rule<number | null> = (raw, name) => {
  if (raw === undefined) return null;
  if (!/^[0-9]{4}$/.test(raw)) throw badParam(name, `must be a four-digit year, got '${raw}'`);
  return Number(raw);
};

/** One of `values` (exact, lower case), `fallback` when absent. */
export const oneOf =
  <T extends string>(values: readonly T[], fallback: T): Rule<T> =>
  (raw, name) => {
    if (raw === undefined) return fallback;
    if (!(values as readonly string[]).includes(raw)) throw badParam(name, `must be one of ${values.join(', ')}, got '${raw}'`);
    return raw as T;
  };

/** An optional enum with no default. */
export const optionalOneOf =
  <T extends string>(values: readonly T[]): Rule<T | null> =>
  (raw, name) =>
    raw === undefined ? null : oneOf(values, values[0])(raw, name);

/**
 * A comma-separated list: items trimmed, duplicates dropped (first wins), an empty item a
 * 400. Null when absent; `required` makes absence (or an empty value) a 400.
 */
export const list =
  (required: boolean): Rule<string[] | null> =>
  (raw, name) => {
    if (raw === undefined) {
      if (required) throw badParam(name, 'is required');
      return null;
    }
    const items: string[] = [];
    const seen = new Set<string>();
    for (const part of raw.split(',')) {
      const item = part.trim();
      if (item.length === 0) throw badParam(name, raw.trim().length === 0 ? 'must not be empty' : 'has an empty item');
      if (seen.has(item)) continue;
      seen.add(item);
      items.push(item);
    }
    return items;
  };

/** A finite decimal number (no NaN, Infinity, hex or blanks). */
export const decimal: Rule<number> = (raw, name) => {
  const value = raw === undefined ? NaN : parseDecimal(raw);
  if (value !== value) throw badParam(name, `must be a finite decimal number, got '${raw ?? ''}'`);
  return value;
};

/** Parses every parameter of `table` from `query`; unknown parameters are ignored. */
export function parseParams<T extends Record<string, Rule<unknown>>>(query: ReadonlyMap<string, string>, table: T): { [K in keyof T]: ReturnType<T[K]> } {
  const out = {} as { [K in keyof T]: ReturnType<T[K]> };
  for (const name of Object.keys(table) as (keyof T & string)[]) out[name] = table[name](query.get(name), name) as ReturnType<T[typeof name]>;
  return out;
}
