// A body's pieces joined in the reused buffer: the same bytes as encoding each piece on its own,
// whatever the text holds (ASCII, CJK, surrogate pairs) and however large (past the buffer's size).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { assemble, type BodyPart } from '../../../transport/serialise/assemble.js';

const expected = (parts: readonly BodyPart[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));

test('pieces of any text and bytes join to the bytes each encodes to, back to back', () => {
  const piece = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: fc.constantFrom('a', '{', '"', '银', '行', '😀', 'é'), maxLength: 40 }),
    fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes)),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
      assert.deepEqual(assemble(parts), expected(parts));
    }),
    { numRuns: 500, seed: 42 },
  );
});

test('a body larger than the buffer, text or bytes, is joined whole (the buffer grows)', () => {
  // 360,000 units of text fit the 1 MiB buffer as characters but not as UTF-8 (1.08 MB): measured, not cut short.
  const text = '银'.repeat(360_000);
  assert.deepEqual(assemble([text]), Buffer.from(text));
  const big = '银'.repeat(400_000); // 1.2 MB of UTF-8 from 400,000 units
  const parts: BodyPart[] = ['{"name":"', big, '","bytes":', Buffer.alloc(700_000, 0x61), '}'];
  const out = assemble(parts);
  assert.equal(out.length, 9 + 1_200_000 + 10 + 700_000 + 1);
  assert.deepEqual(out, expected(parts));
  // Within the bound again after growing: a small body still comes out exact.
  assert.deepEqual(assemble(['😀', 'x']), Buffer.from('😀x'));
});
