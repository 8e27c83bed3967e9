// Content negotiation: the format (`format=` or `Accept`) and the encoding (`Accept-Encoding`).

import { FORMAT_NAMES, FORMATS, type Format } from '../answers/formats/index.js';
import { optionalOneOf } from '../params/declare.js';

export const FORMAT_PARAM = optionalOneOf(
  FORMAT_NAMES,
  `Response format; wins over \`Accept\`. ${FORMATS.map((f) => `${f.name} (${f.paramDoc})`).join(', ')}.`,
);

/** The 406 detail when neither `format=` nor `Accept` names a format offered. */
export const NO_FORMAT = `no response format matches Accept (${FORMATS.map((f) => f.mediaTypes[0]).join(', ')}; or format=)`;

/** A q-value: 0 … 1 with at most three decimals (RFC 9110 §12.4.2), or NaN when malformed. */
function qValue(params: string[]): number {
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== 'q') continue;
    const text = p.slice(eq + 1).trim();
    return /^(0(\.[0-9]{0,3})?|1(\.0{0,3})?)$/.test(text) ? Number(text) : NaN;
  }
  return 1;
}

/** Splits `a;p=1, b` into entries of a lower-case token and its parameters; empty entries dropped. */
function entries(header: string): { token: string; params: string[] }[] {
  const out: { token: string; params: string[] }[] = [];
  for (const part of header.split(',')) {
    const [token, ...params] = part.split(';');
    const t = token.trim().toLowerCase();
    if (t.length > 0) out.push({ token: t, params });
  }
  return out;
}

/** A format on offer: its name and the media types (lower case, no parameters) that select it, its own first. */
export interface Offer<N extends string> {
  readonly name: N;
  readonly mediaTypes: readonly string[];
}

/**
 * How `Accept` chooses among `offers` (in order of preference): for each offer the q of the
 * most specific media range that matches it (`type/subtype` over `type/*` over `*\/*`), the
 * highest q > 0 winning; ties go to the range listed first, then to the offers' order. No
 * header, or one with no well-formed range, means the first offer; null means nothing
 * acceptable (406).
 */
export function acceptNegotiator<N extends string>(offers: readonly Offer<N>[]): (accept: string) => N | null {
  const media: Record<string, N> = {};
  for (const o of offers) for (const type of o.mediaTypes) media[type] = o.name;
  const wildcards: Record<string, N[]> = {};
  for (const [type, name] of Object.entries(media)) (wildcards[`${type.split('/')[0]}/*`] ??= []).push(name);
  const names = offers.map((o) => o.name);
  return (accept) => chooseFormat(accept, names, media, wildcards);
}

function chooseFormat<N extends string>(
  accept: string,
  names: readonly N[],
  MEDIA_TYPES: Record<string, N>,
  WILDCARDS: Record<string, N[]>,
): N | null {
  let best: N | null = null;
  let bestQ = 0;
  let bestAt = Infinity;
  let wellFormed = 0;
  const ranges = entries(accept).filter((e) => {
    const ok = /^[a-z0-9!#$&^_.+*-]+\/[a-z0-9!#$&^_.+*-]+$/.test(e.token) && qValue(e.params) === qValue(e.params);
    if (ok) wellFormed++;
    return ok;
  });
  if (wellFormed === 0) return names[0];
  for (const format of names) {
    let q = -1;
    let at = Infinity;
    let specificity = -1;
    ranges.forEach((e, index) => {
      const s =
        MEDIA_TYPES[e.token] === format ? 2 : WILDCARDS[e.token]?.includes(format) ? 1 : e.token === '*/*' ? 0 : -1;
      if (s > specificity) (specificity = s), (q = qValue(e.params)), (at = index);
    });
    if (q > bestQ || (q === bestQ && q > 0 && at < bestAt)) (best = format), (bestQ = q), (bestAt = at);
  }
  return best;
}

export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * The coding `acceptEncoding` prefers among br and gzip (q-values honoured, `*` standing
 * for any coding not named, br before gzip on a tie); identity when neither is acceptable.
 * A malformed entry is ignored.
 */
export function encodingFromAcceptEncoding(acceptEncoding: string): Encoding {
  const q: Record<string, number> = {};
  for (const e of entries(acceptEncoding)) {
    const value = qValue(e.params);
    if (value === value && /^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(e.token))
      q[e.token === 'x-gzip' ? 'gzip' : e.token] ??= value;
  }
  const of = (coding: string): number => q[coding] ?? q['*'] ?? 0;
  const br = of('br');
  const gzip = of('gzip');
  if (br <= 0 && gzip <= 0) return 'identity';
  return br >= gzip ? 'br' : 'gzip';
}

/** Remembers answers per header text: clients send the same few headers again and again. */
function memo<T>(compute: (header: string) => T): (header: string) => T {
  const known = new Map<string, T>();
  return (header) => {
    let hit = known.get(header);
    if (hit === undefined && !known.has(header)) {
      hit = compute(header);
      if (known.size >= 1000) known.clear(); // bounded: headers come from clients
      known.set(header, hit);
    }
    return hit as T;
  };
}

/**
 * The format `accept` asks for among the registry's (JSON, msgpack, flatbuffers, CSV, Arrow, in
 * that order of preference; `application/*` covers the first three, `text/*` CSV); no header: JSON.
 */
export const formatFromAccept = acceptNegotiator<Format>(FORMATS);

export const negotiateFormat = memo(formatFromAccept);
export const negotiateEncoding = memo(encodingFromAcceptEncoding);
