// Shared by the fuzz suites: run settings, and text arbitraries (any string at all, and strings built from the pieces a parser's edge cases are made of).

import fc from 'fast-check';

/**
 * fc.assert settings: `numRuns` cases (a fresh seed each time; a failure prints its seed
 * and the shrunk counterexample), with the failing assertion's message in the report
 * (node:test does not print an error's cause).
 */
export const runs = (numRuns: number): { numRuns: number; includeErrorInReport: true } => ({
  numRuns,
  includeErrorInReport: true,
});

/** What a call answered: its value, or what it threw. */
export type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown };

export function attempt<T>(run: () => T): Attempt<T> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * Any Unicode scalar value (every code point but the surrogates), small ones and the edges
 * more often. fast-check 4's own `string({ unit: 'binary' })` (3.x's `fullUnicodeString`)
 * does the same but takes over a second to build, each time.
 */
export const codePoint: fc.Arbitrary<string> = fc
  .integer({ min: 0, max: 0x10ffff - 0x800 })
  .map((n) => String.fromCodePoint(n < 0xd800 ? n : n + 0x800));

/** Lone surrogates: valid in a JavaScript string, never in UTF-8 or a well-formed query. */
export const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff'];

/**
 * Any string: printable ASCII, any code point, control characters, and strings glued from
 * `pieces` (near-valid inputs) and lone surrogates.
 */
export function anyText(pieces: readonly string[], maxPieces = 8): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.string() },
    { weight: 2, arbitrary: fc.string({ unit: codePoint }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii' }) },
    { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom(...pieces), maxLength: maxPieces }) },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...pieces, ...LONE_SURROGATES), maxLength: maxPieces }) },
  );
}

/** `n` in base 10, left-padded with zeros to `width` digits. */
export const padded = (n: number, width: number): string => String(n).padStart(width, '0');

/** Text shaped like `YYYY-MM-DD` (or with separators drawn from `separator`, each on its own): years 0–10000, months 0–13, days 0–32, so most are not calendar days. */
export function dateLike(separator: fc.Arbitrary<string> = fc.constant('-')): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.integer({ min: 0, max: 10000 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      separator,
      separator,
    )
    .map(([y, m, d, sep1, sep2]) => `${padded(y, 4)}${sep1}${padded(m, 2)}${sep2}${padded(d, 2)}`);
}

/** Text shaped like numbers: integers of up to 30 digits, doubles in their several renderings, signs and exponents glued on. */
export const numberLike: fc.Arbitrary<string> = fc.oneof(
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.double().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => x.toExponential()),
  fc
    .tuple(
      fc.constantFrom('', '+', '-', '0', '00', '.'),
      fc.nat(),
      fc.constantFrom('', '.', '.5', 'e', 'e5', 'E-7', 'e+', 'e999', 'e-999', ' ', ',5'),
    )
    .map(([a, n, b]) => `${a}${n}${b}`),
);
