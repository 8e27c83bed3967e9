// Fuzzes the query parameters of every route: each rule, the raw query string and the two together, against references written from docs/api-notes.md and the published schemas.

import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { test } from 'node:test';
import fc from 'fast-check';
import { NUMERIC_SNAPSHOT_COLUMNS, SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import type { Dataset } from '../../engine/dataset/dataset.js';
import type { Guard } from '../../transport/guard/guard.js';
import { CommaList } from '../../transport/params/comma-list.js';
import { DATE_PATTERN, decimal, type Param } from '../../transport/params/declare.js';
import { parseQueryString } from '../../transport/params/query-string.js';
import { Problem } from '../../transport/problem.js';
import { parseRequest, type Route } from '../../transport/route.js';
import { routesFor } from '../../transport/routes/index.js';
import { screenRoute } from '../../transport/routes/screen.js';
import { anyText, attempt, codePoint, dateLike, numberLike, padded, runs } from './kit.js';
import { dayOf, FIRST_DAY, isoOf, LAST_DAY, referenceDecimal } from './references.js';

/** Every API route as the server registers it; the guard is read only by /quota's handler, which never runs here. */
const ROUTES: Route[] = routesFor(null as unknown as Guard);

// ---- References, from docs/api-notes.md and each parameter's published schema ----

type Outcome = { ok: true; value: unknown } | { ok: false };
const accept = (value: unknown): Outcome => ({ ok: true, value });
const REFUSE: Outcome = { ok: false };
const acceptUnlessNull = (value: unknown): Outcome => (value === null ? REFUSE : accept(value));

/** The day number of a real calendar day `YYYY-MM-DD` or `YYYYMMDD`, or null. */
function referenceDay(text: string): number | null {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(text) ?? /^([0-9]{4})([0-9]{2})([0-9]{2})$/.exec(text);
  return m === null ? null : dayOf(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** API notes: digits only; past 2^53 a count is taken as 2^53 − 1; at least the schema's minimum. */
function referenceInteger(text: string, min: number): number | null {
  if (!/^[0-9]+$/.test(text)) return null;
  const big = BigInt(text);
  const value = big > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(big);
  return value >= min ? value : null;
}

/** API notes: comma-separated, items trimmed, an empty item a 400. Symbol lists read so: the route drops a symbol named twice. */
function referenceItems(text: string): string[] | null {
  const items = text.split(',').map((item) => item.trim());
  return items.includes('') ? null : items;
}

/** API notes of other lists (fields): the items, duplicates dropped (first wins). */
function referenceList(text: string): string[] | null {
  const items = referenceItems(text);
  return items === null ? null : [...new Set(items)];
}

const KLINE_ORDER = ['open', 'high', 'low', 'close', 'volume', 'amount'];
const KLINE_CODES = new Map([
  ['o', 'open'],
  ['h', 'high'],
  ['l', 'low'],
  ['c', 'close'],
  ['v', 'volume'],
  ['a', 'amount'],
]);
const KLINE_ALWAYS = ['symbol', 'date', 'adj_factor'];
const SNAPSHOT_ORDER = SNAPSHOT_COLUMNS.map((c) => c.name);

/** K-line fields: codes or names in any case, `*` for all; symbol, date and adj_factor add nothing; answered in catalogue order. */
function referenceKlineFields(text: string): string[] | null {
  const items = referenceList(text);
  if (items === null) return null;
  const wanted = new Set<string>();
  for (const item of items.map((i) => i.toLowerCase())) {
    if (item === '*') KLINE_ORDER.forEach((f) => wanted.add(f));
    else if (KLINE_CODES.has(item)) wanted.add(KLINE_CODES.get(item)!);
    else if (KLINE_ORDER.includes(item)) wanted.add(item);
    else if (!KLINE_ALWAYS.includes(item)) return null;
  }
  return KLINE_ORDER.filter((f) => wanted.has(f));
}

/** Snapshot columns in any case, `*` for all; symbol and date always; answered in table order. */
function referenceSnapshotFields(text: string): string[] | null {
  const items = referenceList(text);
  if (items === null) return null;
  const wanted = new Set(['symbol', 'date']);
  for (const item of items.map((i) => i.toLowerCase())) {
    if (item === '*') SNAPSHOT_ORDER.forEach((c) => wanted.add(c));
    else if (SNAPSHOT_ORDER.includes(item)) wanted.add(item);
    else return null;
  }
  return SNAPSHOT_ORDER.filter((c) => wanted.has(c));
}

// ---- Every declared parameter, classified by its published schema ----

type Kind = 'integer' | 'date' | 'year' | 'enum' | 'text' | 'list' | 'kline-fields' | 'snapshot-fields';

interface Declared {
  /** `operationId name`, for messages. */
  where: string;
  name: string;
  param: Param<unknown>;
  kind: Kind;
  /** What the parameter must answer for a given value. */
  contract: (raw: string) => Outcome;
}

interface Schema {
  type?: unknown;
  format?: unknown;
  pattern?: unknown;
  enum?: unknown;
  minimum?: unknown;
  items?: { enum?: unknown };
}

/** The kind and contract of a parameter, read from its schema: null for a schema the fuzzer does not know. */
function classify(param: Param<unknown>): Pick<Declared, 'kind' | 'contract'> | null {
  const s = param.schema as Schema;
  if (s.type === 'integer' && typeof s.minimum === 'number') {
    const min = s.minimum;
    return { kind: 'integer', contract: (raw) => acceptUnlessNull(referenceInteger(raw, min)) };
  }
  if (s.type === 'string' && s.pattern === DATE_PATTERN)
    return { kind: 'date', contract: (raw) => acceptUnlessNull(referenceDay(raw)) };
  if (s.type === 'string' && s.pattern === '^[0-9]{4}$')
    return { kind: 'year', contract: (raw) => (/^[0-9]{4}$/.test(raw) ? accept(Number(raw)) : REFUSE) };
  if (s.type === 'string' && Array.isArray(s.enum)) {
    const values: unknown[] = s.enum;
    return { kind: 'enum', contract: (raw) => (values.includes(raw) ? accept(raw) : REFUSE) };
  }
  if (s.type === 'string' && Object.keys(s).length === 1)
    return { kind: 'text', contract: (raw) => accept(raw.trim()) };
  if (s.type === 'array' && param.list === true) {
    const items = s.items?.enum;
    if (items === undefined) return { kind: 'list', contract: (raw) => acceptUnlessNull(referenceItems(raw)) };
    if (Array.isArray(items) && items.includes('o'))
      return { kind: 'kline-fields', contract: (raw) => acceptUnlessNull(referenceKlineFields(raw)) };
    if (Array.isArray(items) && items.includes('pe_ratio'))
      return { kind: 'snapshot-fields', contract: (raw) => acceptUnlessNull(referenceSnapshotFields(raw)) };
  }
  return null;
}

const ALL_PARAMS = ROUTES.flatMap((r) =>
  Object.entries(r.query).map(([name, param]) => ({
    where: `${r.operationId} ${name}`,
    name,
    param,
    known: classify(param),
  })),
);
/** The classified parameters; a counterexample prints as `operationId name`. */
const DECLARED: Declared[] = ALL_PARAMS.flatMap((p) =>
  p.known === null
    ? []
    : [{ where: p.where, name: p.name, param: p.param, ...p.known, [fc.toStringMethod]: () => p.where }],
);
const declaredOf = (kind: Kind): Declared[] => DECLARED.filter((d) => d.kind === kind);

/** Every enum value any route declares. */
const ENUM_VALUES = [...new Set(declaredOf('enum').flatMap((d) => (d.param.schema as { enum: string[] }).enum))];

// ---- Checking an answer ----

/** The error is the API's 400 invalid_parameter naming `name` (any name when undefined) in `param` and at the head of `detail`. */
function assertBadParam(error: unknown, name: string | undefined, label: string): void {
  assert.ok(error instanceof Problem, `${label}: a Problem is thrown, not ${String(error)}`);
  assert.equal(error.status, 400, `${label}: status 400`);
  assert.equal(error.code, 'invalid_parameter', `${label}: code invalid_parameter`);
  assert.equal(typeof error.param, 'string', `${label}: the problem names a parameter`);
  if (name !== undefined) assert.equal(error.param, name, `${label}: the problem names ${JSON.stringify(name)}`);
  assert.ok(
    error.detail.startsWith(`${error.param}: `),
    `${label}: detail starts with the parameter's name, got ${JSON.stringify(error.detail)}`,
  );
}

/** A value of `kind` has the type and range its schema promises. */
function assertTyped(d: Declared, value: unknown, label: string): void {
  const schema = d.param.schema as Schema;
  const ok = (() => {
    const isList = (v: unknown): v is string[] => Array.isArray(v) && v.every((i) => typeof i === 'string');
    const inOrder = (v: string[], order: string[]): boolean =>
      v.every((f, i) => order.includes(f) && (i === 0 || order.indexOf(v[i - 1]) < order.indexOf(f)));
    switch (d.kind) {
      case 'integer':
        return Number.isSafeInteger(value) && (value as number) >= (schema.minimum as number);
      case 'date':
        return Number.isInteger(value) && (value as number) >= FIRST_DAY && (value as number) <= LAST_DAY;
      case 'year':
        return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 9999;
      case 'enum':
        return (schema.enum as unknown[]).includes(value);
      case 'text':
        return typeof value === 'string' && value === value.trim();
      case 'list':
        return isList(value) && value.length > 0 && value.every((i) => i !== '' && i === i.trim() && !i.includes(','));
      case 'kline-fields':
        return isList(value) && inOrder(value, KLINE_ORDER);
      case 'snapshot-fields':
        return isList(value) && value[0] === 'symbol' && value[1] === 'date' && inOrder(value, SNAPSHOT_ORDER);
    }
  })();
  assert.ok(
    ok,
    `${label}: ${JSON.stringify(value)} is a ${d.kind} value as the schema ${JSON.stringify(schema)} promises`,
  );
}

/** A parsed value as the references write it: a symbol list (read in place) as its items. */
const plain = (value: unknown): unknown => (value instanceof CommaList ? value.items() : value);

/** What parameter `d` reads from `raw`, as the references write it. */
const parsed = (d: Pick<Declared, 'param' | 'name'>, raw: string): unknown => plain(d.param.parse(raw, d.name));

/** The rule's answer for `raw` is the contract's: the same value, or a 400 naming the parameter. */
function checkRule(d: Declared, raw: string): void {
  const label = `${d.where} = ${JSON.stringify(raw)}`;
  const want = d.contract(raw);
  const got = attempt(() => parsed(d, raw));
  if (want.ok) {
    assert.ok(
      got.ok,
      `${label}: accepted as ${JSON.stringify(want.value)}, not refused with ${got.ok ? '' : String(got.error)}`,
    );
    assert.deepEqual(got.value, want.value, `${label}: reads as the reference does`);
    assertTyped(d, got.value, label);
  } else {
    assert.ok(!got.ok, `${label}: a 400, not accepted as ${got.ok ? JSON.stringify(got.value) : ''}`);
    assertBadParam(got.error, d.name, label);
  }
}

/** Fuzzes every parameter of `kind` with `raw`. */
function fuzzKind(kind: Kind, raw: fc.Arbitrary<string>, numRuns: number): void {
  const declared = declaredOf(kind);
  assert.ok(declared.length > 0, `some route declares a ${kind} parameter`);
  fc.assert(fc.property(fc.constantFrom(...declared), raw, checkRule), runs(numRuns));
}

// ---- Arbitraries ----

/** Pieces of near-valid values: digits, signs, exponents, separators, escapes, names that shadow Object.prototype, look-alike characters. */
const PIECES = [
  '0',
  '1',
  '2',
  '9',
  '00',
  '12',
  '-',
  '+',
  '.',
  'e',
  'E',
  'e-',
  ',',
  ' ',
  '\t',
  '\n',
  '%',
  '%2C',
  '%20',
  '%zz',
  '*',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'Infinity',
  'NaN',
  '0x1F',
  '1_000',
  '\u00a0',
  '\ufeff',
  '\u212a' /* Kelvin sign, lower-cases to k */,
  '\u0660' /* Arabic-Indic zero */,
  '\uff11' /* fullwidth 1 */,
  '\u00b2',
  'é',
  '😀',
  'o',
  'C',
  'open',
  'Close',
  'ADJ_FACTOR',
  'symbol',
  'pe_ratio',
  'Market_Name',
  ...ENUM_VALUES,
];

const nearValid = anyText(PIECES);

/** Numbers around the 2^53 cap, and with leading zeros. */
const bigDigits = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String),
  fc.bigInt({ min: 2n ** 53n - 3n, max: 2n ** 53n + 3n }).map(String),
  fc.tuple(fc.constantFrom('0', '00', '000'), fc.nat()).map(([zeros, n]) => `${zeros}${n}`),
);

const realDay = fc.integer({ min: FIRST_DAY, max: LAST_DAY }).map(isoOf);

/** Enum values as given, in another case, or padded. */
const enumLike = fc
  .tuple(fc.constantFrom(...ENUM_VALUES), fc.constantFrom('as is', 'upper', 'padded', 'first upper'))
  .map(([v, how]) =>
    how === 'upper'
      ? v.toUpperCase()
      : how === 'padded'
        ? ` ${v} `
        : how === 'first upper'
          ? v.charAt(0).toUpperCase() + v.slice(1)
          : v,
  );

const FIELD_WORDS = [
  '*',
  ...KLINE_CODES.keys(),
  ...KLINE_ORDER,
  ...KLINE_ALWAYS,
  ...SNAPSHOT_ORDER,
  'turnover',
  'foo',
  '__proto__',
  'constructor',
  '',
];
/** Comma lists of field names in random case and padding, now and then an unknown or empty item. */
const fieldList = fc
  .array(fc.tuple(fc.constantFrom(...FIELD_WORDS), fc.boolean(), fc.constantFrom('', ' ', '\t')), { maxLength: 5 })
  .map((items) => items.map(([w, upper, pad]) => `${pad}${upper ? w.toUpperCase() : w}${pad}`).join(','));

/** Comma lists of symbol-like items, blanks, duplicates and lone commas. */
const symbolList = fc
  .array(
    fc.oneof(
      fc.constantFrom('sh600000', 'SH600000', ' sh600000 ', 'AAPL', 'BRK.B', '', ' ', '__proto__', 'constructor'),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 5 },
  )
  .map((items) => items.join(','));

// ---- The rules, value by value ----

test('integer parameters: a safe integer ≥ the minimum exactly when digits only (2^53 and above read as 2^53 − 1), else a 400 naming it', () => {
  fuzzKind('integer', fc.oneof(nearValid, numberLike, bigDigits), 2000);
});

test('date parameters: a day number exactly when the text is a real calendar day YYYY-MM-DD or YYYYMMDD, else a 400 naming it', () => {
  fuzzKind(
    'date',
    fc.oneof(
      nearValid,
      dateLike(),
      dateLike(fc.constantFrom('-', '/', '', '.', ' ', '--')),
      realDay,
      realDay.map((d) => d.replaceAll('-', '')),
      realDay.map((d) => ` ${d}`),
    ),
    2000,
  );
});

test('year parameters: the year exactly when four ASCII digits, else a 400 naming it', () => {
  fuzzKind(
    'year',
    fc.oneof(
      nearValid,
      fc.tuple(fc.integer({ min: 0, max: 99999 }), fc.integer({ min: 1, max: 5 })).map(([y, w]) => padded(y, w)),
    ),
    1000,
  );
});

test('enum parameters (oneOf, optionalOneOf): accepted exactly when one of the values as written, else a 400 naming it', () => {
  fuzzKind('enum', fc.oneof(nearValid, enumLike), 1000);
});

test('text parameters: any text reads as itself trimmed, never a 400', () => {
  fuzzKind('text', nearValid, 500);
});

test('symbol lists: trimmed items as given (the route answers a symbol named twice once); an empty item is a 400 naming it', () => {
  fuzzKind('list', fc.oneof(nearValid, symbolList), 1000);
});

test('K-line fields: codes or names in any case, `*` for all, answered in catalogue order; an unknown or empty item is a 400 naming it', () => {
  fuzzKind('kline-fields', fc.oneof(nearValid, fieldList), 1500);
});

test('snapshot fields: columns in any case, `*` for all, symbol and date first, table order; an unknown or empty item is a 400 naming it', () => {
  fuzzKind('snapshot-fields', fc.oneof(nearValid, fieldList), 1500);
});

test('screen bounds (decimal): a finite number exactly when a plain decimal, equal to Number() of it, else a 400 naming the bound', () => {
  const bound = fc
    .tuple(fc.constantFrom('min_', 'max_'), fc.constantFrom(...NUMERIC_SNAPSHOT_COLUMNS))
    .map(([side, column]) => side + column);
  fc.assert(
    fc.property(bound, fc.oneof(nearValid, numberLike), (name, raw) => {
      assert.ok(screenRoute.patternQuery!.matches(name), `${name} is a bound the screen route takes`);
      const label = `${name} = ${JSON.stringify(raw)}`;
      const want = referenceDecimal(raw);
      const got = attempt(() => decimal(raw, name));
      if (want === null) {
        assert.ok(!got.ok, `${label}: a 400, not accepted as ${got.ok ? String(got.value) : ''}`);
        assertBadParam(got.error, name, label);
      } else {
        assert.ok(got.ok, `${label}: accepted as ${want}, not refused with ${got.ok ? '' : String(got.error)}`);
        assert.ok(Object.is(got.value, want), `${label}: reads ${String(got.value)}, Number() reads ${want}`);
      }
    }),
    runs(2000),
  );
});

// ---- Round trips: a value written as text reads back as itself ----

test('round trip: every safe integer ≥ the minimum, written in base 10 (with or without leading zeros), reads back as itself', () => {
  const value = fc
    .constantFrom(...declaredOf('integer'))
    .chain((d) =>
      fc.tuple(
        fc.constant(d),
        fc.oneof(
          fc.integer({ min: d.param.schema.minimum as number, max: Number.MAX_SAFE_INTEGER }),
          fc.integer({ min: d.param.schema.minimum as number, max: 1000 }),
        ),
        fc.constantFrom('', '0', '000'),
      ),
    );
  fc.assert(
    fc.property(value, ([d, n, zeros]) => {
      assert.equal(d.param.parse(zeros + String(n), d.name), n, `${d.where}: '${zeros}${n}' reads as ${n}`);
    }),
    runs(1000),
  );
});

test('round trip: every day of the years 0000–9999, written YYYY-MM-DD or YYYYMMDD, reads back as its day number', () => {
  fc.assert(
    fc.property(fc.constantFrom(...declaredOf('date')), fc.integer({ min: FIRST_DAY, max: LAST_DAY }), (d, day) => {
      assert.equal(d.param.parse(isoOf(day), d.name), day, `${d.where}: ${isoOf(day)} reads as day ${day}`);
      const compact = isoOf(day).replaceAll('-', '');
      assert.equal(d.param.parse(compact, d.name), day, `${d.where}: ${compact} reads as day ${day}`);
    }),
    runs(1000),
  );
});

test('round trip: every year 0000–9999, written in four digits, reads back as itself', () => {
  fc.assert(
    fc.property(fc.constantFrom(...declaredOf('year')), fc.integer({ min: 0, max: 9999 }), (d, year) => {
      assert.equal(d.param.parse(padded(year, 4), d.name), year, `${d.where}: ${padded(year, 4)} reads as ${year}`);
    }),
    runs(500),
  );
});

test('round trip: every enum value reads back as itself', () => {
  for (const d of declaredOf('enum')) {
    for (const value of (d.param.schema as { enum: string[] }).enum)
      assert.equal(d.param.parse(value, d.name), value, `${d.where}: '${value}' reads as itself`);
  }
});

test('round trip: a symbol list joined with commas (padded or not) reads back as its items, a repeated one too', () => {
  const item = fc
    .string({ unit: codePoint, minLength: 1, maxLength: 6 })
    .map((s) => s.replace(/,/g, '').trim())
    .filter((s) => s !== '');
  fc.assert(
    fc.property(
      fc.constantFrom(...declaredOf('list')),
      fc.uniqueArray(item, { minLength: 1, maxLength: 6 }),
      fc.boolean(),
      (d, items, pad) => {
        const text = items.map((i) => (pad ? ` ${i} ` : i)).join(',');
        assert.deepEqual(parsed(d, text), items, `${d.where}: ${JSON.stringify(text)} reads as its items`);
        assert.deepEqual(parsed(d, `${text},${items[0]}`), [...items, items[0]], `${d.where}: left to the route`);
      },
    ),
    runs(500),
  );
});

test('round trip: the fields an answer names, written back as `fields`, select the same fields', () => {
  const fieldsParams = [...declaredOf('kline-fields'), ...declaredOf('snapshot-fields')];
  fc.assert(
    fc.property(
      fc.constantFrom(...fieldsParams),
      fc.shuffledSubarray(
        FIELD_WORDS.filter((w) => w !== ''),
        { minLength: 1, maxLength: 6 },
      ),
      (d, items) => {
        const first = attempt(() => d.param.parse(items.join(','), d.name));
        if (!first.ok) return; // a word of the other catalogue: refused, checked above
        const answered = first.value as string[];
        if (answered.length === 0) return; // only always-answered columns named
        const again = d.param.parse(answered.join(','), d.name);
        assert.deepEqual(again, answered, `${d.where}: ${JSON.stringify(answered)} reads back as itself`);
        assert.deepEqual(
          d.param.parse(answered.map((f) => f.toUpperCase()).join(','), d.name),
          answered,
          `${d.where}: in upper case too`,
        );
      },
    ),
    runs(500),
  );
});

test('round trip: every finite double, written by String(), toExponential() or toPrecision(17), reads back as itself', () => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
      for (const text of [String(x), x.toExponential(), x.toPrecision(17)]) {
        const read = decimal(text, 'min_close');
        assert.ok(read === x, `'${text}' reads as ${x} (read ${read})`); // -0 is written '0' and reads as 0, === 0
      }
    }),
    runs(1000),
  );
});

// ---- Absent parameters ----

test('every declared parameter of every route has a schema the fuzzer knows', () => {
  const unknown = ALL_PARAMS.filter((p) => p.known === null).map((p) => `${p.where} ${JSON.stringify(p.param.schema)}`);
  assert.deepEqual(unknown, [], 'no parameter escapes the fuzzer: teach classify() a new schema');
});

test('an absent parameter answers its schema default (null without one), a K-line fields default, or a 400 when required', () => {
  for (const d of DECLARED) {
    const got = attempt(() => d.param.parse(undefined, d.name));
    if (d.param.required) {
      assert.ok(!got.ok, `${d.where}: required, so absent is a 400`);
      assertBadParam(got.error, d.name, d.where);
      continue;
    }
    assert.ok(got.ok, `${d.where}: absent is no error`);
    if (d.kind === 'kline-fields') {
      assert.ok((got.value as string[]).length > 0, `${d.where}: absent answers some K-line fields`);
      assertTyped(d, got.value, d.where);
    } else {
      assert.deepEqual(
        got.value,
        (d.param.schema as { default?: unknown }).default ?? null,
        `${d.where}: absent answers the schema's default`,
      );
    }
  }
});

// ---- The raw query string ----

/** True when `text` has no lone surrogate (a query string from the wire never does). */
const wellFormed = (text: string): boolean => Buffer.from(text, 'utf8').toString('utf8') === text;

/** True when every `%` starts an escape `%XX` and each run of escapes spells UTF-8: what decodeURIComponent demands. */
function wellEncoded(text: string): boolean {
  for (let i = 0; i < text.length; ) {
    if (text[i] !== '%') {
      i++;
      continue;
    }
    const bytes: number[] = [];
    for (; text[i] === '%'; i += 3) {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return false;
      bytes.push(parseInt(hex, 16));
    }
    if (!isUtf8(Uint8Array.from(bytes))) return false;
  }
  return true;
}

/** One name or value decoded as an HTML form does (`+` is a space), by the WHATWG URLSearchParams. */
const formDecode = (text: string): string => new URLSearchParams(`v=${text}`).get('v')!;

type QueryOutcome = { ok: true; map: Map<string, string> } | { ok: false; param: string };

/**
 * API notes: `+` is a space; a list parameter given again adds its value to the list (as if
 * sent comma-separated); any other name given twice, or text that does not percent-decode, is
 * a 400 naming it ('query' for a name).
 */
function referenceQuery(raw: string, lists: ReadonlySet<string> = new Set()): QueryOutcome {
  const map = new Map<string, string>();
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const [rawName, rawValue] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
    if (!wellEncoded(rawName)) return { ok: false, param: 'query' };
    const name = formDecode(rawName);
    if (!wellEncoded(rawValue) || (map.has(name) && !lists.has(name))) return { ok: false, param: name };
    const value = formDecode(rawValue);
    map.set(name, map.has(name) ? `${map.get(name)},${value}` : value);
  }
  return { ok: true, map };
}

/** Every byte of the UTF-8 of `text` as `%XX`. */
const percentAll = (text: string): string =>
  [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

const ESCAPES = [
  '%',
  '%2',
  '%zz',
  '%41',
  '%2C',
  '%26',
  '%3D',
  '%2B',
  '+',
  '=',
  '&',
  '%C3',
  '%C3%A9',
  '%E2%82%AC',
  '%ED%A0%80' /* a surrogate */,
  '%F4%90%80%80' /* past U+10FFFF */,
  '%C0%AF' /* overlong */,
  '%FF',
];
const NAMES = [...new Set(ROUTES.flatMap((r) => Object.keys(r.query)))];
const NAME_PIECES = [
  ...NAMES,
  'min_pe_ratio',
  'max_close',
  'min_name',
  'min_',
  'max_foo',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'Limit',
  '',
];

/** A name or value as a client might send it: as is, fully percent-encoded, by encodeURIComponent, spaces as `+`. */
function spelt(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(text, fc.constantFrom('as is', 'percent', 'component', 'plus')).map(([t, how]) => {
    if (how === 'as is' || !wellFormed(t)) return t;
    if (how === 'percent') return percentAll(t);
    if (how === 'component') return encodeURIComponent(t);
    return t.replace(/ /g, '+');
  });
}

const valueText = fc.oneof(
  nearValid,
  enumLike,
  bigDigits,
  realDay,
  fieldList,
  symbolList,
  numberLike,
  fc.string({ unit: fc.constantFrom(...ESCAPES, 'a', '1'), maxLength: 6 }),
);
const nameText = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NAME_PIECES) },
  { weight: 1, arbitrary: anyText([...NAME_PIECES, ...ESCAPES], 4) },
);
const segment = fc
  .tuple(spelt(nameText), fc.option(spelt(valueText), { freq: 6 }))
  .map(([n, v]) => (v === null ? n : `${n}=${v}`));
const rawQuery = fc.oneof(
  { weight: 4, arbitrary: fc.array(segment, { maxLength: 6 }).map((s) => s.join('&')) },
  { weight: 1, arbitrary: anyText([...ESCAPES, ...NAME_PIECES, 'a', '1']) },
);

/** A query for `route`: mostly its own names, once each, with values that are often valid; sometimes a name repeated (a list's repeats join, any other is a 400). */
function queryFor(route: Route): fc.Arbitrary<string> {
  const own = fc.constantFrom(...Object.keys(route.query));
  const pair = fc.tuple(
    fc.oneof({ weight: 8, arbitrary: own }, { weight: 1, arbitrary: spelt(nameText) }),
    fc.option(spelt(valueText), { freq: 10 }),
  );
  const text = (pairs: [string, string | null][]): string =>
    pairs.map(([n, v]) => (v === null ? n : `${n}=${v}`)).join('&');
  return fc.oneof(
    { weight: 4, arbitrary: fc.uniqueArray(pair, { selector: ([n]) => n, maxLength: 5 }).map(text) },
    { weight: 2, arbitrary: fc.array(pair, { maxLength: 6 }).map(text) },
    { weight: 1, arbitrary: rawQuery },
  );
}

test('the raw query string: the names and values URLSearchParams reads, or a 400 naming the first bad name (`query` when the name itself is malformed)', () => {
  fc.assert(
    fc.property(rawQuery, (raw) => {
      const label = `?${raw}`;
      const got = attempt(() => parseQueryString(raw));
      if (!wellFormed(raw)) {
        if (!got.ok) assertBadParam(got.error, undefined, label); // lone surrogates: only "nothing but a 400"
        return;
      }
      const want = referenceQuery(raw);
      if (want.ok) {
        assert.ok(got.ok, `${label}: parses, not refused with ${got.ok ? '' : String(got.error)}`);
        assert.deepEqual(got.value, want.map, `${label}: the names and values URLSearchParams reads`);
      } else {
        assert.ok(!got.ok, `${label}: a 400, not ${got.ok ? JSON.stringify([...got.value]) : ''}`);
        assertBadParam(got.error, want.param, label);
      }
    }),
    runs(2000),
  );
});

/** A Dataset is read by parseRequest only to check the market path parameter, and that reads `markets` alone. */
const NO_DATASET = { markets: {} } as unknown as Dataset;
const pathOf = (route: Route): string[] => route.pathNames.map((n) => (n === 'market' ? 'ashare' : 'sh600000'));

/** What parseRequest must answer: unknown names first (in query order), then each declared parameter in declaration order. */
function referenceRequest(
  route: Route,
  raw: string,
): { ok: true; query: Map<string, string>; p: Record<string, unknown> } | { ok: false; param: string } {
  const query = referenceQuery(raw, route.listNames);
  if (!query.ok) return query;
  const declared = Object.keys(route.query);
  for (const name of query.map.keys())
    if (!declared.includes(name) && !(route.patternQuery?.matches(name) ?? false)) return { ok: false, param: name };
  const p: Record<string, unknown> = {};
  for (const name of declared) {
    const param = route.query[name];
    const value = query.map.get(name);
    if (value === undefined) {
      if (param.required) return { ok: false, param: name };
      p[name] = param.parse(undefined, name); // the fallback, held to the schema by the test above
      continue;
    }
    const want = classify(param)!.contract(value);
    if (!want.ok) return { ok: false, param: name };
    p[name] = want.value;
  }
  return { ok: true, query: query.map, p };
}

test('a whole request, any route, any query: the values the references read, or a 400 naming the first bad parameter; never another error', () => {
  const seen = { accepted: 0, refused: 0 };
  fc.assert(
    fc.property(
      fc.constantFrom(...ROUTES).chain((route) => fc.tuple(fc.constant(route.operationId), queryFor(route))),
      ([operationId, raw]) => {
        const route = ROUTES.find((r) => r.operationId === operationId)!;
        const label = `${route.operationId} ?${raw}`;
        const got = attempt(() => parseRequest(route, NO_DATASET, pathOf(route), raw));
        if (!wellFormed(raw)) {
          if (!got.ok) assertBadParam(got.error, undefined, label);
          return;
        }
        const want = referenceRequest(route, raw);
        if (want.ok) {
          seen.accepted++;
          assert.ok(got.ok, `${label}: accepted, not refused with ${got.ok ? '' : String(got.error)}`);
          const { query } = got.value;
          const p = Object.fromEntries(Object.entries(got.value.p).map(([name, value]) => [name, plain(value)]));
          assert.deepEqual(query, want.query, `${label}: the query the reference reads`);
          assert.deepEqual(p, want.p, `${label}: every declared parameter as the reference reads it`);
        } else {
          seen.refused++;
          assert.ok(!got.ok, `${label}: a 400 naming ${want.param}, not accepted`);
          assertBadParam(got.error, want.param, label);
        }
      },
    ),
    runs(2000),
  );
  assert.ok(seen.accepted > 100 && seen.refused > 100, `both outcomes were exercised (${JSON.stringify(seen)})`);
});
