// Compressed bodies (Content-Encoding br and gzip), at levels chosen by measurement.

import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Encoding } from '../http/negotiate.js';

/** Bodies under this many bytes go uncompressed: a compressed tiny body saves nothing. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * Levels measured on the demo's answers (npm run bench, "encodings"): see bench/README.md.
 * brotli 5 and gzip 6 sit where smaller output stops paying for the time it takes.
 */
export const BROTLI_QUALITY = 5;
export const GZIP_LEVEL = 6;

/** `body` compressed with `encoding` (br or gzip). */
export function compress(body: Uint8Array, encoding: Exclude<Encoding, 'identity'>): Buffer {
  if (encoding === 'br') {
    return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  }
  return gzipSync(body, { level: GZIP_LEVEL });
}
