// The sha256 of each file of a snapshot folder, and which of them the edition served already read.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { FileRef } from '../snapshot/read-csv.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';

/** A file as an edition records it: its content hash and what the file system said of it when read. */
export interface FileRecord {
  sha256: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

/** sha256 of the file's bytes as stored (the compressed bytes of a `.csv.gz`), as the loader hashes them. */
function hashFile(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path, { highWaterMark: 1 << 20 })
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/**
 * The record of `file`. One whose size, mtime and inode equal `known`'s (the same path of the
 * same folder, read for the edition served) is taken as unchanged without reading it, as the
 * folder's fingerprint is; any other is read whole.
 */
export async function fileRecord(file: FileRef, known: FileRecord | undefined): Promise<FileRecord> {
  try {
    const info = await stat(file.path);
    if (known !== undefined && known.size === info.size && known.mtimeMs === info.mtimeMs && known.ino === info.ino)
      return known;
    return { sha256: await hashFile(file.path), size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
  } catch (error) {
    throw new SnapshotError(
      file.display,
      0,
      `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}
