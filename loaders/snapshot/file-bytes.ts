// A snapshot file's bytes in chunks: plain or gunzipped, hashed as stored, expansion bounded.

import { createHash, type Hash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { FileRef } from './read-csv.js';
import { SnapshotError } from './snapshot-error.js';

const CHUNK_BYTES = 1 << 20;

/**
 * Calls `onChunk` with the file's content in order (gunzipped for `.gz`), feeding the
 * bytes as stored to `hash` when one is given. A chunk is valid only during the call (its
 * memory is reused): copy what must outlive it. A file that cannot be read, a corrupt gzip
 * and one that expands past the limit (see LoadLimits) throw SnapshotError(display, 0, …)
 * as soon as they are found; whatever `onChunk` throws propagates and stops the reading.
 */
export async function readFileBytes(
  file: FileRef,
  hash: BytesHash | null,
  onChunk: (bytes: Buffer) => void,
): Promise<void> {
  const { display, limits } = file;
  let handle: FileHandle;
  try {
    handle = await open(file.path, 'r');
  } catch (error) {
    throw new SnapshotError(display, 0, `cannot read: ${reasonOf(error)}`);
  }
  let consumerError: unknown = null;
  try {
    const stored = (await handle.stat()).size;
    const gzip = file.path.endsWith('.gz');
    const allowance = Math.max(limits.expansionFloorBytes, limits.maxExpansion * stored);
    let expanded = 0;
    const deliver = (chunk: Buffer): void => {
      expanded += chunk.length;
      try {
        if (gzip && expanded > allowance)
          throw new SnapshotError(
            display,
            0,
            `expands to more than ${allowance} bytes (${limits.maxExpansion}× its ${stored}, at least ${limits.expansionFloorBytes})`,
          );
        onChunk(chunk);
      } catch (error) {
        consumerError = error;
        throw error;
      }
    };
    const consume = async (source: AsyncIterable<Buffer>): Promise<void> => {
      for await (const chunk of source) deliver(chunk);
    };
    if (gzip) {
      await pipeline(
        handle.createReadStream({ highWaterMark: CHUNK_BYTES, autoClose: false }),
        hashing(hash),
        createGunzip({ chunkSize: CHUNK_BYTES }),
        consume,
      );
    } else {
      // One buffer, reused: fresh 1 MiB buffers per read would stay allocated until a GC.
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
        if (bytesRead === 0) break;
        const chunk = buffer.subarray(0, bytesRead);
        hash?.update(chunk);
        deliver(chunk);
      }
    }
  } catch (error) {
    if (consumerError !== null) throw consumerError; // pipeline may report it as an abort
    throw new SnapshotError(display, 0, `cannot read: ${reasonOf(error)}`);
  } finally {
    await handle.close();
  }
}

/** What takes a file's bytes as stored, in order: a sha256, or a BlockHasher (block-hash.ts). */
export interface BytesHash {
  update(bytes: Uint8Array): unknown;
}

/** A sha256 of a file's bytes as stored. */
export const newHash = (): Hash => createHash('sha256');

/** Passes bytes through, feeding them to `hash` (if any) on the way. */
function hashing(hash: BytesHash | null): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash?.update(chunk);
      done(null, chunk);
    },
  });
}

/** A short reason: the errno code for file-system faults (no absolute paths), zlib's message otherwise. */
function reasonOf(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (typeof e.syscall === 'string' && typeof e.code === 'string') return e.code;
  return e instanceof Error ? e.message : String(error);
}
