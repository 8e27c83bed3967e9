// Query parameters as data: each declaration carries its parse rule and its documentation,
// so the parser, the OpenAPI `parameters` and the docs are read from one place.

import { INVALID_DATE, parseSnapshotDate } from '../../engine/calendar/days.js';
import { parseDecimal } from '../../engine/text/decimal.js';
import { badParam } from '../problem.js';
import { CommaList } from './comma-list.js';

export type Json = Record<string, unknown>;

/** A rule reads the raw value (undefined when absent) of parameter `name`, or throws a 400 problem. */
export type Rule<T> = (raw: string | undefined, name: string) => T;

/** One query parameter: how it parses and how the OpenAPI document describes it. */
export interface Param<T> {
  parse: Rule<T>;
  /** The value's JSON Schema as published (type, enum, bounds, default). */
  schema: Json;
  doc: string;
  required: boolean;
  /** A list: comma-separated, or the parameter repeated (OpenAPI's default form style, exploded). */
  list?: boolean;
  /** A value to show in the OpenAPI document. */
  example?: string;
}

/** A family of parameters named by a pattern (a screen's `min_<column>`), parsed by the route. */
export interface PatternParam {
  /** What the family is called where it is spoken of as one (the clients' `bounds`). */
  name: string;
  matches(name: string): boolean;
  /** Every name of the family, each an optional parameter of its own in the OpenAPI document (generators need names, not patterns). */
  members: readonly string[];
  /** The schema of each member's value. */
  schema: Json;
  /** The family's description (the route's docs). */
  doc: string;
  /** One member's description. */
  memberDoc(name: string): string;
}

/** A route's query parameters by name. */
export type Params = Record<string, Param<unknown>>;
/** The parsed values of `P`. */
export type Parsed<P extends Params> = { [K in keyof P]: P[K] extends Param<infer T> ? T : never };

const DIGITS = /^[0-9]+$/;

/** A base-10 integer of digits only, at least `min`, `fallback` when absent. */
export function integer(fallback: number, min: number, doc: string): Param<number> {
  return {
    schema: { type: 'integer', minimum: min, default: fallback },
    doc: `${doc} Digits only.`,
    required: false,
    parse(raw, name) {
      if (raw === undefined) return fallback;
      if (!DIGITS.test(raw)) throw badParam(name, `must be a whole number of digits only, got '${raw}'`);
      // Past 2^53 a count means "all of it": cap it so answers echo an exact JSON integer.
      const value = Math.min(Number(raw), Number.MAX_SAFE_INTEGER);
      if (value < min) throw badParam(name, `must be at least ${min}, got ${value}`);
      return value;
    },
  };
}

/** The two forms a date parameter takes (the parser also checks the day is real). */
export const DATE_PATTERN = '^([0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{8})$';

/** A real calendar date `YYYY-MM-DD` or `YYYYMMDD` as days since 1970-01-01, or null when absent. */
export function date(doc: string, example?: string): Param<number | null> {
  return {
    schema: { type: 'string', pattern: DATE_PATTERN },
    doc: `${doc} A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD).`,
    required: false,
    example,
    parse(raw, name) {
      if (raw === undefined) return null;
      const days = parseSnapshotDate(raw);
      if (days === INVALID_DATE) throw badParam(name, `must be a real date YYYY-MM-DD or YYYYMMDD, got '${raw}'`);
      return days;
    },
  };
}

/** A four-digit year, or null when absent. */
export function year(doc: string): Param<number | null> {
  return {
    schema: { type: 'string', pattern: '^[0-9]{4}$' },
    doc: `${doc} Four digits.`,
    required: false,
    parse(raw, name) {
      if (raw === undefined) return null;
      if (!/^[0-9]{4}$/.test(raw)) throw badParam(name, `must be a four-digit year, got '${raw}'`);
      return Number(raw);
    },
  };
}

/** The rule of an enum: one of `values` (exact), `fallback` when absent. */
function enumRule<T extends string, F>(values: readonly T[], fallback: F): Rule<T | F> {
  const allowed: ReadonlySet<string> = new Set(values);
  return (raw, name) => {
    if (raw === undefined) return fallback;
    if (!allowed.has(raw)) throw badParam(name, `must be one of ${values.join(', ')}, got '${raw}'`);
    return raw as T;
  };
}

/** One of `values` (exact), `fallback` when absent. */
export function oneOf<T extends string>(values: readonly T[], fallback: T, doc: string): Param<T> {
  return {
    schema: { type: 'string', enum: [...values], default: fallback },
    doc,
    required: false,
    parse: enumRule(values, fallback),
  };
}

/** One of `values` (exact), or null when absent. */
export function optionalOneOf<T extends string>(values: readonly T[], doc: string): Param<T | null> {
  return { schema: { type: 'string', enum: [...values] }, doc, required: false, parse: enumRule(values, null) };
}

/** Free text, trimmed; null when absent. */
export function text(doc: string): Param<string | null> {
  return { schema: { type: 'string' }, doc, required: false, parse: (raw) => (raw === undefined ? null : raw.trim()) };
}

/**
 * A comma-separated list: items trimmed, duplicates dropped (first wins), an empty item a
 * 400. Null when absent; `required` makes absence (or an empty value) a 400.
 */
export function list(required: boolean, items: Json, doc: string): Param<string[] | null> {
  return {
    schema: { type: 'array', items, minItems: 1 },
    doc: `Comma-separated list, or the parameter repeated (\`name=a&name=b\`: the same list). ${doc} Items are trimmed, duplicates dropped (first wins); an empty item is a 400.`,
    required,
    list: true,
    parse(raw, name) {
      const all = listOf(raw, name, required);
      return all === null ? null : [...new Set(all.items())];
    },
  };
}

/**
 * A comma-separated list of symbols, items trimmed, an empty item a 400. Duplicates are left
 * for the route to drop by the symbol they name (`SH600000,600000.SH` is one symbol twice):
 * it looks each up anyway, where a set of the texts here cost a 50-symbol batch ~4 µs more.
 * The items stay in the text as sent (a CommaList): a lookup reads them in place.
 */
export function symbolList(required: boolean, doc: string): Param<CommaList | null> {
  return {
    schema: { type: 'array', items: { type: 'string' }, minItems: 1 },
    doc: `Comma-separated list, or the parameter repeated (\`symbols=a&symbols=b\`: the same list). ${doc} Items are trimmed; a symbol named twice (in any of its forms) is answered once, where first named; an empty item is a 400.`,
    required,
    list: true,
    parse: (raw, name) => listOf(raw, name, required),
  };
}

/** The list `raw` sends, items trimmed; null when absent (a 400 when `required`), an empty item a 400. */
function listOf(raw: string | undefined, name: string, required: boolean): CommaList | null {
  if (raw !== undefined) return CommaList.parse(raw, name);
  if (required) throw badParam(name, 'is required');
  return null;
}

/** A finite decimal number (no NaN, Infinity, hex or blanks). */
export const decimal: Rule<number> = (raw, name) => {
  const value = raw === undefined ? NaN : parseDecimal(raw);
  if (value !== value) throw badParam(name, `must be a finite decimal number, got '${raw ?? ''}'`);
  return value;
};

/**
 * Parses every declared parameter of `params` from `query`. A name neither declared nor
 * matched by `pattern` is a 400 naming it: a silently ignored typo would answer a filtered
 * question with unfiltered rows.
 */
export function parseParams<P extends Params>(
  query: ReadonlyMap<string, string>,
  params: P,
  pattern: PatternParam | null = null,
): Parsed<P> {
  for (const name of query.keys()) {
    if (!Object.hasOwn(params, name) && (pattern === null || !pattern.matches(name)))
      throw badParam(name, 'unknown parameter');
  }
  const out = {} as Record<string, unknown>;
  for (const name in params) out[name] = params[name].parse(query.get(name), name);
  return out as Parsed<P>;
}
