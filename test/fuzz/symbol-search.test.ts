// Fuzzes the symbol search index against a linear scan of every code and name, as the README's rule
// reads (exact code, code prefix, code substring, name substring, case-insensitive, ties by
// symbol): markets of codes and names with CJK, digits and mixed case, and terms drawn from them
// (substrings, one letter, empty, in another case) or from anywhere.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SymbolIndex } from '../../engine/dataset/symbol-index.js';
import { searchSymbols } from '../../engine/queries/symbol-search.js';
import { runs } from './kit.js';

/**
 * The rule, naively: every symbol tested against every rank in turn, a symbol in the first rank it
 * meets; the symbol the term names in another form (`named`, `SymbolIndex.find`'s: its own tests
 * hold the forms) ranks as an exact code.
 */
function linearScan(
  codes: readonly string[],
  names: readonly string[],
  search: string,
  offset: number,
  limit: number,
  named = -1,
): { total: number; indices: number[] } {
  const needle = search.toLowerCase();
  const ranks: number[][] = [[], [], [], []];
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i].toLowerCase();
    if (code === needle || i === named) ranks[0].push(i);
    else if (code.startsWith(needle)) ranks[1].push(i);
    else if (code.includes(needle)) ranks[2].push(i);
    else if (names[i].toLowerCase().includes(needle)) ranks[3].push(i);
  }
  const all = ranks.flat();
  return { total: all.length, indices: all.slice(offset, offset + limit) };
}

/** Code characters: letters of both cases, digits, the separators codes may hold. */
const codeChar = fc.constantFrom(...'abcdeshzABCDESHZ0123456789._-');
/** Name characters: CJK (as ashare's names), Latin in both cases, digits, spaces, a Turkish İ (two units lower-cased), an astral character. */
const nameChar = fc.constantFrom(...'浦发银行股份样本科技Ab Cd eF 09İ', '𝔸', 'ß');

/** A market: distinct codes (also without regard to case), ascending by code unit as a Dataset holds them, each with a name. */
const market = fc
  .uniqueArray(fc.string({ unit: codeChar, minLength: 1, maxLength: 9 }), {
    maxLength: 60,
    selector: (code) => code.toLowerCase(),
  })
  .chain((codes) => {
    const sorted = [...codes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return fc.tuple(
      fc.constant(sorted),
      fc.array(fc.string({ unit: nameChar, maxLength: 12 }), { minLength: sorted.length, maxLength: sorted.length }),
    );
  });

/** A term: a piece of a code or a name (case changed or not), a near miss, one character, empty, or any text. */
const termOf = (codes: string[], names: string[]): fc.Arbitrary<string> => {
  const texts = [...codes, ...names].filter((t) => t.length > 0);
  const piece =
    texts.length === 0
      ? fc.constant('')
      : fc
          .tuple(fc.constantFrom(...texts), fc.nat(), fc.nat(), fc.constantFrom('as is', 'upper', 'lower'))
          .map(([text, a, b, casing]) => {
            const from = a % text.length;
            const cut = text.slice(from, from + 1 + (b % (text.length - from)));
            return casing === 'upper' ? cut.toUpperCase() : casing === 'lower' ? cut.toLowerCase() : cut;
          });
  /** Near misses: two pieces glued, or a piece with one character changed (their grams found, the whole not). */
  const glued = fc.tuple(piece, piece).map(([a, b]) => a + b);
  const changed = fc
    .tuple(piece, fc.nat(), fc.oneof(codeChar, nameChar))
    .map(([text, at, c]) =>
      text.length === 0 ? c : text.slice(0, at % text.length) + c + text.slice((at % text.length) + 1),
    );
  return fc.oneof(
    { weight: 5, arbitrary: piece },
    { weight: 2, arbitrary: glued },
    { weight: 2, arbitrary: changed },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 2, arbitrary: fc.string({ unit: fc.oneof(codeChar, nameChar), minLength: 1, maxLength: 1 }) },
    { weight: 2, arbitrary: fc.string({ unit: fc.oneof(codeChar, nameChar), maxLength: 6 }) },
  );
};

test('the search index answers every term as a linear scan of every code and name does', () => {
  fc.assert(
    fc.property(
      market.chain(([codes, names]) =>
        fc.tuple(
          fc.constant(codes),
          fc.constant(names),
          fc.array(fc.tuple(termOf(codes, names), fc.nat({ max: 70 }), fc.integer({ min: 1, max: 70 })), {
            minLength: 1,
            maxLength: 12,
          }),
        ),
      ),
      ([codes, names, asks]) => {
        const symbols = new SymbolIndex(codes, {
          names,
          marketNames: codes.map(() => null),
          marketTypes: codes.map(() => null),
        });
        for (const [term, offset, limit] of asks)
          assert.deepEqual(
            searchSymbols(symbols, term, offset, limit),
            linearScan(codes, names, term, offset, limit, term === '' ? -1 : symbols.find(term)),
            `'${term}' from ${offset}, ${limit}`,
          );
      },
    ),
    runs(400),
  );
});

test('over a two-letter alphabet (every gram of a term found, the term itself not), the index still answers as the scan', () => {
  const letter = fc.constantFrom('a', 'b', 'A', '银');
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.string({ unit: letter, minLength: 1, maxLength: 8 }), {
        maxLength: 40,
        selector: (c) => c.toLowerCase(),
      }),
      fc.array(fc.string({ unit: letter, maxLength: 14 }), { minLength: 40, maxLength: 40 }),
      fc.array(fc.string({ unit: letter, maxLength: 7 }), { minLength: 1, maxLength: 20 }),
      (unsorted, allNames, terms) => {
        const codes = [...unsorted].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        const names = allNames.slice(0, codes.length);
        const symbols = new SymbolIndex(codes, {
          names,
          marketNames: codes.map(() => null),
          marketTypes: codes.map(() => null),
        });
        for (const term of terms)
          assert.deepEqual(
            searchSymbols(symbols, term, 0, 100),
            linearScan(codes, names, term, 0, 100, term === '' ? -1 : symbols.find(term)),
            `'${term}'`,
          );
      },
    ),
    runs(300),
  );
});

test('a term naming a symbol in a form every route takes finds it first: 600000.SH, 0700.HK, KK, BTC-USDT', () => {
  const labels = (codes: string[]) => ({
    names: codes.map(() => null),
    marketNames: codes.map(() => null),
    marketTypes: codes.map(() => null),
  });
  const first = (market: string, codes: string[], term: string): { total: number; codes: string[] } => {
    const page = searchSymbols(new SymbolIndex(codes, labels(codes), market), term, 0, 10);
    return { total: page.total, codes: page.indices.map((i) => codes[i]) };
  };
  // Its code is no substring of the term: it joins the matches, first.
  assert.deepEqual(first('ashare', ['sh600000', 'sh600001', 'sz000001'], '600000.SH'), {
    total: 1,
    codes: ['sh600000'],
  });
  assert.deepEqual(first('hkstock', ['hk00005', 'hk00700', 'hk07000'], '0700.HK'), { total: 1, codes: ['hk00700'] });
  assert.deepEqual(first('crypto', ['BTCUSDT', 'ETHBTC'], 'btc-usdt'), { total: 1, codes: ['BTCUSDT'] });
  // A substring of others' codes too: taken out of its rank, counted once, ahead of them.
  assert.deepEqual(first('usstock', ['usBKK', 'usEKKD', 'usKK', 'usKKR'], 'KK'), {
    total: 4,
    codes: ['usKK', 'usBKK', 'usEKKD', 'usKKR'],
  });
  // Ambiguous (sh000001 and sz000001 both have 000001): no symbol goes first.
  assert.deepEqual(first('indices', ['sh000001', 'sz000001'], '000001'), { total: 2, codes: ['sh000001', 'sz000001'] });
});
