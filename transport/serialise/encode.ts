// Compressed bodies (Content-Encoding br and gzip), at levels chosen by measurement.

import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Encoding } from '../http/negotiate.js';

/** Bodies under this many bytes go uncompressed: a compressed tiny body saves nothing. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * Levels measured on the demo's answers (`npm run bench -- --only levels`; bytes exact, times
 * on this 2-core machine, median of one body). K-lines 100 rows (14,569 B of JSON) / screen
 * 50 rows (21,827 B):
 *   br 5   1,982 B (13.6 %) / 4,874 B (22.3 %) in 0.1–0.2 / 0.5 ms; br 4 is 6–8 % larger,
 *          br 6–8 save under 1 % for up to twice the time, br 9 takes 40–70 ms for the same
 *          bytes, br 10–11 save 15–20 % in 6–32 ms.
 *   gzip 6 2,230 B (15.3 %) / 5,226 B (23.9 %) in 60–160 µs; gzip 7–9 save 1–3 % for 2–3×.
 * A kept answer is compressed once per data version and encoding; an uncached one on every
 * request, so a level costing milliseconds would be paid per request: 5 and 6 are where a
 * smaller body stops paying for the time.
 */
export const BROTLI_QUALITY = 5;
export const GZIP_LEVEL = 6;

/**
 * The brotli window for a body of `bytes`: the smallest that holds it whole (back-references
 * reach 2^bits − 16 bytes), at least 2^17, at most brotli's default 2^22.
 * At the default (2^22) the encoder allocates an 8.45 MB ring buffer for any body over 64 KiB;
 * measured with bench/http/memory.ts (a malloc-counting shim, 30,000 requests) that was most
 * of a serving thread's allocated bytes, and freeing it raised glibc's mmap and trim
 * thresholds, so each thread's heap kept ~17 MB it never returned. A window holding the whole
 * body finds the same matches: JSON bodies of 4 kB to 1.6 MB came out the same size (the
 * header's window bits aside) in the same time. Below 2^17 brotli would pick another hasher
 * at this quality.
 */
export const brotliWindowBits = (bytes: number): number =>
  Math.min(constants.BROTLI_DEFAULT_WINDOW, Math.max(17, Math.ceil(Math.log2(bytes + 16))));

/**
 * Bytes of the output chunks zlib fills for a body of `bytes`. The result is a view of its
 * chunk, which lives until V8 collects it: at the default (16 KiB) a 1 kB answer left 16 KiB
 * of garbage per compression. Half the body holds the output in one chunk at the ratios
 * measured above (13–24 %); a chunk under 4 KiB comes from Node's shared Buffer pool.
 */
export const outputChunkBytes = (bytes: number): number => Math.min(16 * 1024, Math.max(512, bytes >>> 1));

/** `body` compressed with `encoding` (br or gzip). */
export function compress(body: Uint8Array, encoding: Exclude<Encoding, 'identity'>): Buffer {
  const chunkSize = outputChunkBytes(body.length);
  if (encoding === 'br') {
    const params = {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(body.length),
    };
    return brotliCompressSync(body, { params, chunkSize });
  }
  return gzipSync(body, { level: GZIP_LEVEL, chunkSize });
}
