// Fuzzes the snapshot cell readers and the CSV cell splitter against references written from "The snapshot folder" rules (docs/operators.md).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { dateCell, numberCell, textCell } from '../../loaders/snapshot/cells.js';
import { isValidSymbol } from '../../loaders/snapshot/parse-cells.js';
import { RowError } from '../../loaders/snapshot/snapshot-error.js';
import { splitCells } from '../../loaders/snapshot/split-cells.js';
import { anyText, attempt, type Attempt, codePoint, dateLike, numberLike, runs } from './kit.js';
import { dayOf, FIRST_DAY, isoOf, LAST_DAY, referenceDecimal } from './references.js';

/** The error is the loader's RowError (the CSV reader turns it into `file:line: reason`). */
function assertRowError<T>(got: Attempt<T>, label: string): void {
  assert.ok(!got.ok, `${label}: refused, not read as ${got.ok ? JSON.stringify(got.value) : ''}`);
  assert.ok(got.error instanceof RowError, `${label}: a RowError, not ${String(got.error)}`);
  assert.ok(got.error.reason.length > 0, `${label}: the RowError gives a reason`);
}

function assertRead<T>(got: Attempt<T>, label: string): T {
  assert.ok(got.ok, `${label}: read, not refused with ${got.ok ? '' : String(got.error)}`);
  return got.value;
}

/** Pieces of near-valid cells: digits, signs, points, exponents, blanks, spellings of infinity and NaN, look-alike digits. */
const CELL_PIECES = [
  '0',
  '1',
  '5',
  '9',
  '00',
  '-',
  '+',
  '.',
  'e',
  'E',
  'e+',
  'e-',
  '999',
  ' ',
  '\t',
  '\r',
  '\n',
  ',',
  '"',
  'inf',
  'Infinity',
  'NaN',
  '0x',
  '_',
  '\u00a0',
  '\ufeff',
  '\u0660',
  '\uff11',
  'é',
];

// ---- Number cells ----

test('numberCell: an empty cell is null (NaN); any other cell is a finite number exactly when a plain decimal, equal to Number() of it; else a RowError', () => {
  fc.assert(
    fc.property(fc.oneof(anyText(CELL_PIECES), numberLike), (text) => {
      const label = `number cell ${JSON.stringify(text)}`;
      const got = attempt(() => numberCell(text, 'close'));
      if (text === '') {
        assert.ok(Number.isNaN(assertRead(got, label)), `${label}: empty reads as null (NaN)`);
        return;
      }
      const decimal = referenceDecimal(text);
      if (decimal === null) return assertRowError(got, label);
      const want = decimal === 0 ? 0 : decimal; // `-0` is stored as 0
      const value = assertRead(got, label);
      assert.ok(Number.isFinite(value), `${label}: a finite number, not ${value}`);
      assert.ok(Object.is(value, want), `${label}: reads ${value}, Number() reads ${want}`);
    }),
    runs(2000),
  );
});

test('numberCell round trip: every finite double, written by String(), toExponential() or toFixed(), reads back as Number() of that text', () => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 0, max: 20 }), (x, digits) => {
      const texts = [String(x), x.toExponential(), x.toFixed(digits)];
      for (const text of texts)
        assert.ok(
          Object.is(numberCell(text, 'close'), Number(text) === 0 ? 0 : Number(text)),
          `${JSON.stringify(text)} reads as ${Number(text)} (-0 as 0)`,
        );
      assert.ok(numberCell(String(x), 'close') === x, `String(${x}) reads back as ${x}`);
    }),
    runs(1000),
  );
});

// ---- Date cells ----

/** docs/operators.md: `YYYY-MM-DD` or `YYYYMMDD`, a real calendar day; else null. */
function referenceSnapshotDay(text: string): number | null {
  const m = /^([0-9]{4})(-?)([0-9]{2})\2([0-9]{2})$/.exec(text);
  return m === null ? null : dayOf(Number(m[1]), Number(m[3]), Number(m[4]));
}

test('dateCell: a day number exactly when YYYY-MM-DD or YYYYMMDD names a real calendar day (checked through Date), else a RowError', () => {
  const mixed = fc.constantFrom('-', '', '/', '.', ' ', '--');
  const day = fc.integer({ min: FIRST_DAY, max: LAST_DAY });
  fc.assert(
    fc.property(
      fc.oneof(
        anyText(CELL_PIECES),
        dateLike(),
        dateLike(fc.constant('')),
        dateLike(mixed),
        day.map(isoOf),
        day.map((d) => `${isoOf(d).replace(/-/g, '').slice(0, 7)}-`),
      ),
      (text) => {
        const label = `date cell ${JSON.stringify(text)}`;
        const got = attempt(() => dateCell(text, 'date'));
        const want = referenceSnapshotDay(text);
        if (want === null) return assertRowError(got, label);
        assert.equal(assertRead(got, label), want, `${label}: the day Date counts`);
      },
    ),
    runs(2000),
  );
});

test('dateCell round trip: every day of the years 0000–9999, written YYYY-MM-DD or YYYYMMDD, reads back as its day number', () => {
  fc.assert(
    fc.property(fc.integer({ min: FIRST_DAY, max: LAST_DAY }), (day) => {
      const iso = isoOf(day);
      assert.equal(dateCell(iso, 'date'), day, `${iso} reads as day ${day}`);
      assert.equal(dateCell(iso.replace(/-/g, ''), 'date'), day, `${iso.replace(/-/g, '')} reads as day ${day}`);
    }),
    runs(1000),
  );
});

// ---- Text cells and symbols ----

test('textCell: the cell trimmed, null when that is empty, a RowError when a line break is left inside', () => {
  fc.assert(
    fc.property(anyText(CELL_PIECES), (text) => {
      const label = `text cell ${JSON.stringify(text)}`;
      const got = attempt(() => textCell(text, 'name'));
      const trimmed = text.trim();
      if (trimmed.includes('\n') || trimmed.includes('\r')) return assertRowError(got, label);
      assert.equal(assertRead(got, label), trimmed === '' ? null : trimmed, `${label}: trimmed, null when empty`);
    }),
    runs(1000),
  );
});

const SYMBOL_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-';

test('isValidSymbol: true exactly for 1–32 characters of A–Z, a–z, 0–9, dot, dash, underscore', () => {
  const symbolLike = fc.string({
    unit: fc.constantFrom(...SYMBOL_CHARS, ' ', '\n', '/', '\u212a', 'é', '\u0660'),
    maxLength: 40,
  });
  const edgeLength = fc
    .tuple(fc.integer({ min: 0, max: 34 }), fc.constantFrom('', '\n', ' '))
    .map(([n, tail]) => 'a'.repeat(n) + tail);
  fc.assert(
    fc.property(fc.oneof(anyText(CELL_PIECES), symbolLike, edgeLength), (text) => {
      const want = text.length >= 1 && text.length <= 32 && [...text].every((c) => SYMBOL_CHARS.includes(c));
      assert.equal(isValidSymbol(text), want, `${JSON.stringify(text)}: ${want ? 'a' : 'not a'} symbol code`);
    }),
    runs(1000),
  );
});

// ---- Splitting a line into cells ----

/** Cells as a snapshot line can hold them: any text but a line feed, rich in quotes, commas and blanks. */
const cellText = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'Z', '1', '"', '""', ',', ' ', '\r', '\t', 'é', '😀'), maxLength: 6 }),
  fc.string({ unit: codePoint, maxLength: 6 }).map((s) => s.replace(/\n/g, '')),
);

/** RFC 4180: a cell holding a quote or a comma is quoted, its quotes doubled; `quoteAnyway` quotes a plain cell too. */
const encodeCell = (cell: string, quoteAnyway: boolean): string =>
  quoteAnyway || cell.includes('"') || cell.includes(',') ? `"${cell.replace(/"/g, '""')}"` : cell;

/** A strict RFC 4180 reader of one line: the cells, or null when a quote is stray, unbalanced or followed by text. */
function referenceCells(line: string): string[] | null {
  const cell = /"((?:[^"]|"")*)"|([^",]*)/y;
  const cells: string[] = [];
  for (let at = 0; ; at++) {
    cell.lastIndex = at;
    const m = cell.exec(line)!; // the second branch matches the empty string at worst
    cells.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]);
    at = cell.lastIndex;
    if (at === line.length) return cells;
    if (line[at] !== ',') return null;
  }
}

test('splitCells round trip: cells joined with RFC 4180 quoting split back into exactly those cells', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(cellText, fc.boolean()), { minLength: 1, maxLength: 6 }), (pairs) => {
      const cells = pairs.map(([cell]) => cell);
      const line = pairs.map(([cell, quote]) => encodeCell(cell, quote)).join(',');
      assert.deepEqual(splitCells(line), cells, `${JSON.stringify(line)} splits into ${JSON.stringify(cells)}`);
    }),
    runs(2000),
  );
});

test('splitCells: any line of quotes, commas and text is read exactly as a strict RFC 4180 reader reads it, or refused with a RowError', () => {
  const line = fc.string({ unit: fc.constantFrom('"', '"', ',', 'a', ' ', '\r', 'é'), maxLength: 14 });
  fc.assert(
    fc.property(fc.oneof(line, anyText(CELL_PIECES)), (text) => {
      const label = `line ${JSON.stringify(text)}`;
      const got = attempt(() => splitCells(text));
      const want = referenceCells(text);
      if (want === null) return assertRowError(got, label);
      assert.deepEqual(assertRead(got, label), want, `${label}: the cells RFC 4180 reads`);
    }),
    runs(2000),
  );
});

test('splitCells: a quoted cell that does not close on its line is a RowError', () => {
  fc.assert(
    fc.property(fc.array(cellText, { maxLength: 3 }), cellText, (before, open) => {
      const line = [...before.map((c) => encodeCell(c, false)), `"${open.replace(/"/g, '""')}`].join(',');
      assertRowError(
        attempt(() => splitCells(line)),
        `line ${JSON.stringify(line)}`,
      );
    }),
    runs(500),
  );
});

test('splitCells: a quote inside an unquoted cell, or text after a closing quote, is a RowError', () => {
  const plain = fc.string({ unit: fc.constantFrom('a', '1', ' ', 'é', '\r'), maxLength: 4 });
  const stray = fc.oneof(
    fc
      .tuple(
        plain.filter((s) => s !== ''),
        plain,
      )
      .map(([head, tail]) => `${head}"${tail}`), // a"b: the quote is not at the cell's start
    fc
      .tuple(
        cellText,
        plain.filter((s) => s !== ''),
      )
      .map(([quoted, tail]) => `"${quoted.replace(/"/g, '""')}"${tail}`), // "a"b: text after the quote
  );
  fc.assert(
    fc.property(
      fc.array(cellText, { maxLength: 3 }),
      stray,
      fc.array(cellText, { maxLength: 3 }),
      (before, bad, after) => {
        const line = [...before.map((c) => encodeCell(c, false)), bad, ...after.map((c) => encodeCell(c, false))].join(
          ',',
        );
        assertRowError(
          attempt(() => splitCells(line)),
          `line ${JSON.stringify(line)}`,
        );
      },
    ),
    runs(500),
  );
});
