// Compressed bodies: br and gzip decode to the same bytes; the brotli window is just large enough for the body.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { brotliWindowBits, compress, outputChunkBytes } from '../../../transport/serialise/encode.js';

/** JSON-like bytes that compress about as answers do. */
const body = (bytes: number): Buffer => {
  let text = '';
  for (let i = 0; text.length < bytes; i++)
    text += `{"symbol":"sh${600000 + (i % 97)}","close":${(i * 1.37) % 100},"volume":${(i * 7919) % 100000}},`;
  return Buffer.from(text.slice(0, bytes));
};

test('the brotli window holds the whole body (back-references reach 2^bits − 16), between 2^17 and the default 2^22', () => {
  for (const bytes of [0, 1, 1000, 131_056, 131_057, 262_128, 262_129, 4_194_288, 4_194_289, 50_000_000]) {
    const bits = brotliWindowBits(bytes);
    assert.ok(bits >= 17 && bits <= constants.BROTLI_DEFAULT_WINDOW, `${bytes} B: ${bits}`);
    if (bits < constants.BROTLI_DEFAULT_WINDOW) assert.ok(2 ** bits - 16 >= bytes, `${bytes} B fits 2^${bits}`);
    if (bits > 17) assert.ok(2 ** (bits - 1) - 16 < bytes, `${bytes} B: 2^${bits} is the smallest that fits`);
  }
});

test('br and gzip bodies decode to the original bytes, around the window sizes too', () => {
  for (const bytes of [1024, 70_000, 131_056, 131_057, 300_000]) {
    const original = body(bytes);
    assert.ok(brotliDecompressSync(compress(original, 'br')).equals(original), `br ${bytes} B`);
    assert.ok(gunzipSync(compress(original, 'gzip')).equals(original), `gzip ${bytes} B`);
  }
});

test('a compressed body holds no more memory than its output chunk: half the body, 512 B to 16 KiB', () => {
  assert.equal(outputChunkBytes(100), 512);
  assert.equal(outputChunkBytes(6000), 3000);
  assert.equal(outputChunkBytes(1_000_000), 16 * 1024);
  for (const encoding of ['br', 'gzip'] as const) {
    const small = compress(body(2000), encoding);
    assert.ok(
      small.buffer.byteLength <= 8192,
      `${encoding}: a 2 kB body's output is in a 1 kB chunk from Node's 8 KiB pool, not a 16 KiB buffer of its own (${small.buffer.byteLength})`,
    );
  }
});
