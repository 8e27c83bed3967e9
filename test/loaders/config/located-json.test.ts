// JSON read with lines: the same values and the same refusals as JSON.parse, and the line of every member and every syntax error.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { JsonLineError, parseLocatedJson } from '../../../loaders/config/located-json.js';

/** JSON.parse's verdict on `text`: its value, or 'refused'. */
function native(text: string): { value: unknown } | 'refused' {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return 'refused';
  }
}

/** This reader's verdict, in JSON.parse's terms; 'twice' for a member named twice (JSON.parse keeps the last). */
function ours(text: string): { value: unknown } | 'refused' | 'twice' {
  try {
    return { value: parseLocatedJson(text).value };
  } catch (error) {
    if (error instanceof JsonLineError)
      return / is given twice in one object/.test(error.message) ? 'twice' : 'refused';
    throw error;
  }
}

/** The two verdicts agree: the same value, or both refused; a member named twice is what JSON.parse reads but this reader refuses. */
function assertAgree(text: string): void {
  const mine = ours(text);
  const theirs = native(text);
  if (mine === 'twice')
    assert.notEqual(theirs, 'refused', `${JSON.stringify(text)}: well-formed but for a member named twice`);
  else assert.deepEqual(mine, theirs, JSON.stringify(text));
}

/** Any JSON value (strings of any code unit: escapes, surrogates) without a member name twice in one object (JSON.parse keeps the last; this reader refuses). */
const jsonValue = fc.jsonValue({ stringUnit: 'binary' }).filter((v) => {
  const text = JSON.stringify(v);
  return text === undefined || ours(text) !== 'twice';
});

test('every document JSON.stringify writes reads as JSON.parse reads it, printed compact or indented', () => {
  fc.assert(
    fc.property(jsonValue, fc.constantFrom(0, 2, '\t'), (v, indent) => {
      const text = JSON.stringify(v, null, indent);
      assert.deepEqual(ours(text), native(text), text);
    }),
    { numRuns: 500 },
  );
});

test('text cut or altered anywhere is refused exactly when JSON.parse refuses it, and read the same otherwise', () => {
  const pieces = fc.constantFrom(
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '"',
    '\\',
    ' ',
    '\n',
    '\t',
    '\r',
    '0',
    '-',
    '.',
    'e',
    '1',
    'x',
    'true',
    'null',
    'fals',
    '\\u00e9',
    '\\uZZ',
    '\u0001',
    '\u00a0',
    '\uFEFF',
  );
  fc.assert(
    fc.property(jsonValue, fc.nat(), fc.array(pieces, { maxLength: 3 }), fc.nat(3), (v, at, inserted, cut) => {
      const text = JSON.stringify(v, null, 1) ?? '';
      const i = text.length === 0 ? 0 : at % (text.length + 1);
      const altered = text.slice(0, i) + inserted.join('') + text.slice(Math.min(text.length, i + cut));
      assertAgree(altered);
    }),
    { numRuns: 3000 },
  );
});

test('a member name keeps the line it stands on', () => {
  const doc = parseLocatedJson('{\n  "a": 1,\n\n  "b": {\n    "c": [1,\n 2],\n    "d": null }\n}');
  const top = doc.value as any;
  assert.deepEqual(
    [doc.lineOf(top, 'a'), doc.lineOf(top, 'b'), doc.lineOf(top.b, 'c'), doc.lineOf(top.b, 'd')],
    [2, 4, 5, 7],
  );
  assert.equal(doc.line, 1);
  assert.equal(parseLocatedJson('\n\n  {}').line, 3, 'the document starts after leading white space');
});

test('__proto__ is an own member, as JSON.parse makes it, and changes no prototype', () => {
  const v = parseLocatedJson('{"__proto__": {"x": 1}}').value as Record<string, unknown>;
  assert.deepEqual(Object.keys(v), ['__proto__']);
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
});

for (const [text, line, reason] of [
  ['', 1, /end of the file/],
  ['{\n  "a": 1,\n}', 3, /member name/],
  ['{\n  "a" 1\n}', 2, /':' after the member name 'a'/],
  ['{\n  "a": 1\n  "b": 2\n}', 3, /',' or '}'/],
  ['{\n  "a": [1,\n  2\n}', 4, /',' or '\]'/],
  ['{\n  "a": "two\nlines"\n}', 2, /control character/],
  ['{\n  "a": "open\n', 2, /control character/],
  ['{"a":\n  "never closed', 2, /not closed/],
  ['{\n  "a": 01\n}', 2, /malformed number/],
  ['{\n  "a": tru\n}', 2, /expected a value/],
  ['{\n  "a": "\\x"\n}', 2, /unknown escape/],
  ['{}\n\n{}', 3, /after the JSON value/],
  ['{\n  "a": 1,\n  "a": 2\n}', 3, /'a' is given twice in one object \(first on line 2\)/],
] as const) {
  test(`${JSON.stringify(text)} is refused on line ${line}`, () => {
    assert.throws(
      () => parseLocatedJson(text),
      (error: unknown) => {
        assert.ok(error instanceof JsonLineError);
        assert.equal(error.line, line);
        assert.match(error.message, reason);
        return true;
      },
    );
  });
}
