// Fuzzes the snapshot line splitter: any bytes, cut into chunks anywhere, give the lines (or the first bad line) a reference reads from the whole input.

import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { test } from 'node:test';
import fc from 'fast-check';
import { LineSplitter } from '../../loaders/snapshot/line-splitter.js';
import { RowError } from '../../loaders/snapshot/snapshot-error.js';
import { codePoint, runs } from './kit.js';

const DEFAULT_MAX_LINE_BYTES = 64 * 1024; // docs/operators.md: a line longer than 64 KiB is refused

type Fault = 'too long' | 'not UTF-8';

/** Each line delivered, with its number. */
type Delivered = [text: string, line: number][];

interface Expected {
  lines: Delivered;
  /** The first bad line and everything wrong with it; null when every line is good. */
  fault: { line: number; kinds: Fault[] } | null;
}

interface Split {
  lines: Delivered;
  /** The line refused and the reason given; null when every line was delivered. */
  fault: { line: number; kind: Fault | 'unknown'; reason: string } | null;
}

/**
 * The snapshot folder's rules (docs/operators.md) on the whole input at once: lines end at `\n` (a `\r` before it is
 * dropped), a last line without one still counts; the first line over `maxLineBytes` bytes
 * or not UTF-8 (a U+FFFD counts as not UTF-8) is refused and nothing after it is read.
 */
function referenceLines(bytes: Buffer, maxLineBytes: number): Expected {
  const raw: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0x0a) continue;
    raw.push(bytes.subarray(from, i));
    from = i + 1;
  }
  if (from < bytes.length) raw.push(bytes.subarray(from));
  const lines: Delivered = [];
  for (const [k, piece] of raw.entries()) {
    const line = piece.at(-1) === 0x0d ? piece.subarray(0, -1) : piece;
    const text = line.toString('utf8');
    const kinds: Fault[] = [];
    if (line.length > maxLineBytes) kinds.push('too long');
    if (!isUtf8(line) || text.includes('\ufffd')) kinds.push('not UTF-8');
    if (kinds.length > 0) return { lines, fault: { line: k + 1, kinds } };
    lines.push([text, k + 1]);
  }
  return { lines, fault: null };
}

/** A RowError gives a reason and no code: which rule it names is read from the reason's words. */
const faultOf = (reason: string): Fault | 'unknown' =>
  /longer than/.test(reason) ? 'too long' : /UTF-8/.test(reason) ? 'not UTF-8' : 'unknown';

/** Feeds `bytes` to a LineSplitter in chunks cut at `cuts` (sorted; repeats make empty chunks), then ends it. */
function split(bytes: Buffer, cuts: readonly number[], maxLineBytes: number): Split {
  const lines: Delivered = [];
  const splitter = new LineSplitter(maxLineBytes, (text, line) => lines.push([text, line]));
  try {
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      splitter.push(bytes.subarray(from, cut));
      from = cut;
    }
    splitter.end();
    return { lines, fault: null };
  } catch (error) {
    assert.ok(error instanceof RowError, `only a RowError is thrown, not ${String(error)}`);
    return { lines, fault: { line: splitter.line, kind: faultOf(error.reason), reason: error.reason } };
  }
}

/** Pieces of input: text with multi-byte characters, line ends, a lone `\r`, random bytes and known bad UTF-8. */
const piece = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .string({ unit: fc.constantFrom('a', ',', '"', ' ', 'é', '€', '😀', '\r', '\ufeff'), maxLength: 8 })
      .map((s) => Buffer.from(s)),
  },
  { weight: 2, arbitrary: fc.string({ unit: codePoint, maxLength: 4 }).map((s) => Buffer.from(s)) },
  { weight: 4, arbitrary: fc.constantFrom('\n', '\r\n', '\r', '\n\n').map((s) => Buffer.from(s)) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 3 }).map((b) => Buffer.from(b)) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        [0xff],
        [0xc3],
        [0xe2, 0x82] /* cut short */,
        [0xed, 0xa0, 0x80] /* a surrogate */,
        [0xc0, 0xaf] /* overlong */,
        [0xf4, 0x90, 0x80, 0x80] /* past U+10FFFF */,
        [0xef, 0xbf, 0xbd] /* U+FFFD itself */,
      )
      .map((b) => Buffer.from(b)),
  },
);

/** Some bytes, with chunk boundaries anywhere (inside `\r\n` and multi-byte characters too), or one chunk per byte. */
const chunkedInput = fc
  .array(piece, { maxLength: 24 })
  .map((pieces) => Buffer.concat(pieces))
  .chain((bytes) =>
    fc.tuple(
      fc.constant(bytes),
      fc.oneof(
        {
          weight: 4,
          arbitrary: fc
            .array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 10 })
            .map((cuts) => [...cuts].sort((a, b) => a - b)),
        },
        { weight: 1, arbitrary: fc.constant(Array.from({ length: bytes.length }, (_, i) => i)) },
      ),
    ),
  );

/** Small limits, so that the length rule trips often, and the default. */
const maxLineBytes = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(DEFAULT_MAX_LINE_BYTES));

/** The splitter's answer is the reference's: the same lines, the same refused line, a reason that line deserves. */
function assertAsReference(got: Split, want: Expected, label: string): void {
  assert.deepEqual(got.lines, want.lines, `${label}: the lines before any refused one, numbered from 1`);
  assert.equal(got.fault?.line, want.fault?.line, `${label}: the refused line is the first bad one`);
  if (got.fault !== null && want.fault !== null) {
    assert.ok(
      want.fault.kinds.includes(got.fault.kind as Fault),
      `${label}: refused as '${got.fault.reason}', which names none of its faults (${want.fault.kinds.join(', ')})`,
    );
  }
}

test('LineSplitter: any bytes in any chunks give the lines, numbers and first refused line the documented rules give the whole input', () => {
  fc.assert(
    fc.property(chunkedInput, maxLineBytes, ([bytes, cuts], max) => {
      const label = `${JSON.stringify(bytes.toString('latin1'))} cut at ${JSON.stringify(cuts)}, limit ${max}`;
      assertAsReference(split(bytes, cuts, max), referenceLines(bytes, max), label);
    }),
    runs(2000),
  );
});

test('LineSplitter: the same bytes cut into chunks two different ways give the same lines and refuse the same line, for the same reason when it has one fault', () => {
  const twoCuttings = chunkedInput.chain(([bytes, cuts]) =>
    fc.tuple(
      fc.constant(bytes),
      fc.constant(cuts),
      fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 10 }).map((c) => [...c].sort((a, b) => a - b)),
    ),
  );
  fc.assert(
    fc.property(twoCuttings, maxLineBytes, ([bytes, cuts, others], max) => {
      const label = `${JSON.stringify(bytes.toString('latin1'))}, limit ${max}: cut at ${JSON.stringify(cuts)} and at ${JSON.stringify(others)}`;
      const [a, b] = [split(bytes, cuts, max), split(bytes, others, max)];
      assert.deepEqual(a.lines, b.lines, `${label}: the same lines`);
      assert.equal(a.fault?.line, b.fault?.line, `${label}: the same refused line`);
      // A line both too long and not UTF-8 may be refused for either: held across chunks it is measured before it is decoded.
      if (referenceLines(bytes, max).fault?.kinds.length === 1)
        assert.equal(a.fault?.reason, b.fault?.reason, `${label}: the same reason`);
    }),
    runs(1000),
  );
});

test('LineSplitter: lines around the 32 KiB decoding piece and the 64 KiB limit, in large chunks, read as the reference reads them', () => {
  const LENGTHS = [
    0,
    1,
    2,
    32 * 1024 - 2,
    32 * 1024,
    32 * 1024 + 1,
    DEFAULT_MAX_LINE_BYTES - 1,
    DEFAULT_MAX_LINE_BYTES,
    DEFAULT_MAX_LINE_BYTES + 1,
    DEFAULT_MAX_LINE_BYTES + 2,
    70_000,
  ];
  /** A line of exactly `n` bytes of `ch` (topped up with `a`), and its line end; printed as its recipe, not its 64 KiB. */
  const bigLine = fc
    .tuple(
      fc.constantFrom(...LENGTHS),
      fc.integer({ min: -2, max: 2 }),
      fc.constantFrom('a', 'é', '€', '😀'),
      fc.constantFrom('\n', '\r\n', ''),
    )
    .map(([length, jitter, ch, end]) => {
      const n = Math.max(0, length + jitter);
      const width = Buffer.byteLength(ch);
      return {
        bytes: Buffer.from(ch.repeat(Math.floor(n / width)) + 'a'.repeat(n % width) + end),
        recipe: `${n} bytes of ${ch}${JSON.stringify(end)}`,
      };
    });
  const input = fc.array(bigLine, { minLength: 1, maxLength: 5 }).chain((lines) => {
    const bytes = Buffer.concat(lines.map((l) => l.bytes));
    const cuts = fc
      .array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 4 })
      .map((c) => [...c].sort((a, b) => a - b));
    const recipe = lines.map((l) => l.recipe).join(' + ');
    return cuts.map((c) =>
      Object.assign([bytes, c] as [Buffer, number[]], {
        [fc.toStringMethod]: () => `${recipe}, cut at ${JSON.stringify(c)}`,
      }),
    );
  });
  fc.assert(
    fc.property(input, ([bytes, cuts]) => {
      const got = split(bytes, cuts, DEFAULT_MAX_LINE_BYTES);
      const want = referenceLines(bytes, DEFAULT_MAX_LINE_BYTES);
      const label = `${bytes.length} bytes cut at ${JSON.stringify(cuts)}`;
      // Line lengths first: a failure then prints numbers, not 64 KiB strings.
      assert.deepEqual(
        got.lines.map(([t, n]) => [Buffer.byteLength(t), n]),
        want.lines.map(([t, n]) => [Buffer.byteLength(t), n]),
        `${label}: the same line lengths and numbers`,
      );
      assertAsReference(got, want, label);
    }),
    runs(60),
  );
});
