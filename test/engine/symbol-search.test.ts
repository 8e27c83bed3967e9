// Symbol search: ranked matches, and its index's memory bounded by the characters it indexes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SymbolIndex } from '../../engine/dataset/symbol-index.js';
import { searchSymbols } from '../../engine/queries/symbol-search.js';

const codes = Array.from({ length: 3000 }, (_, i) => `sh${String(600000 + i)}`);
const index = (): SymbolIndex =>
  new SymbolIndex(codes, {
    names: codes.map((_, i) => (i % 2 === 0 ? 'Alpha Bank' : 'Beta Steel')),
    marketNames: codes.map(() => null),
    marketTypes: codes.map(() => null),
  });

test('exact code, then code prefix, then code substring, then name substring; paged', () => {
  const symbols = new SymbolIndex(['ab1', 'xab', 'zz', 'abc'], {
    names: ['', '', 'Crab', ''],
    marketNames: [null, null, null, null],
    marketTypes: [null, null, null, null],
  });
  assert.deepEqual(searchSymbols(symbols, 'AB', 0, 10), { total: 4, indices: [0, 3, 1, 2] });
  assert.deepEqual(
    searchSymbols(symbols, 'ab', 1, 2),
    { total: 4, indices: [3, 1] },
    'a remembered search pages the same',
  );
});

test('the index holds a bounded number of bytes per indexed character, and broad terms page right', () => {
  const symbols = index();
  const characters = symbols.lowerCodes.join('').length + symbols.lowerNames.join('').length;
  // Every prefix of every 7th code: terms matching 1 to 3,000 symbols, and name terms matching 1,500.
  const terms = ['bank', 'steel', 'a', 'e'];
  for (let i = 0; i < codes.length; i += 7)
    for (let n = 3; n <= codes[i].length; n++) terms.push(codes[i].slice(0, n).toUpperCase());
  for (const term of terms) {
    const page = searchSymbols(symbols, term, 0, 50);
    assert.equal(page.indices.length, Math.min(50, page.total));
  }
  // At most three grams per character, each a 4-byte position in a list and at worst a gram of its
  // own in the gram table (~40 bytes an entry); the sorted positions and codes: 12 bytes a symbol.
  assert.ok(
    symbols.search.bytes <= 3 * (4 + 40) * characters + 12 * codes.length,
    `${symbols.search.bytes} bytes for ${characters} characters`,
  );
  assert.deepEqual(
    searchSymbols(symbols, 'sh', 2990, 50).indices,
    Array.from({ length: 10 }, (_, i) => 2990 + i),
    'the last page of a term every code starts with',
  );
  assert.deepEqual(searchSymbols(symbols, 'bank', 0, 3), { total: 1500, indices: [0, 2, 4] }, 'a name term');
});
