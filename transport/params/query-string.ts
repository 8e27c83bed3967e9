// Parses a raw query string strictly: no duplicates (a list parameter's repeats join as its comma list), no malformed percent-encoding.

import { badParam } from '../problem.js';

/** One percent-encoded name or value (`+` is a space); malformed encoding is a 400 naming `name`. */
export function decode(text: string, name: string): string {
  if (text.indexOf('%') < 0 && text.indexOf('+') < 0) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw badParam(name, 'malformed percent-encoding');
  }
}

/** No parameter may repeat (a route without list parameters). */
const NO_LISTS: ReadonlySet<string> = new Set();

/**
 * Name → value of `raw` (the part after `?`). `+` is a space, as in HTML forms. A name in
 * `lists` given again adds its value to the list (`symbols=a&symbols=b` is `symbols=a,b`:
 * OpenAPI's default form/explode style, what generated clients send); any other name given
 * twice is a 400, and so is text that does not percent-decode; empty segments are skipped.
 */
export function parseQueryString(raw: string, lists: ReadonlySet<string> = NO_LISTS): Map<string, string> {
  const out = new Map<string, string>();
  if (raw.length === 0) return out;
  for (const part of raw.split('&')) {
    if (part.length === 0) continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const name = decode(rawName, 'query');
    const value = eq < 0 ? '' : decode(part.slice(eq + 1), name);
    const before = out.get(name);
    if (before === undefined) out.set(name, value);
    else if (lists.has(name)) out.set(name, `${before},${value}`);
    else throw badParam(name, 'given more than once');
  }
  return out;
}
