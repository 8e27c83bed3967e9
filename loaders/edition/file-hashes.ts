// Each file of a snapshot folder as an edition records it: its identity (block by block), and
// which files the edition served already read, or read in part (a file that only grew).

import { stat } from 'node:fs/promises';
import { type FileBlocks, grownBlocks, identityOf, storedBlocks } from '../snapshot/block-hash.js';
import type { FileRef } from '../snapshot/read-csv.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';

/** A file as an edition records it: its content identity and blocks, what the file system said of it, and a K-line file's lines. */
export interface FileRecord {
  /** The identity of its bytes as stored (block-hash.ts `identityOf`): what the content hash and part names are made of. */
  hash: string;
  blocks: FileBlocks;
  size: number;
  mtimeMs: number;
  ino: number;
  /** A K-line file's physical lines (its header's included), data rows, and whether its last line ended with a line break: where a tail starts numbering. */
  lines: number | null;
  rows: number | null;
  endsWithNewline: boolean | null;
}

/** How a file compares with the served edition's record of it. */
export type FileChange =
  | { kind: 'same' }
  /** It grew, and its first `known.size` bytes are the ones recorded: only what follows is new. */
  | { kind: 'grown'; known: FileRecord }
  /** New, or changed in place (edited, shrunk, replaced): read whole. */
  | { kind: 'whole' };

/** A record without the file's lines (the reader fills them in for a K-line file). */
const recordOf = (blocks: FileBlocks, info: { mtimeMs: number; ino: number }): FileRecord => ({
  hash: identityOf(blocks),
  blocks,
  size: blocks.size,
  mtimeMs: info.mtimeMs,
  ino: info.ino,
  lines: null,
  rows: null,
  endsWithNewline: null,
});

/**
 * The record of `file` now, and how it compares with `known` (the same path of the same folder,
 * as the edition served recorded it). Equal size, mtime and inode: the same, not read (as the
 * folder's fingerprint is). A K-line file that grew and ended with a line break: its recorded
 * blocks checked by crc32 (every byte read, never assumed from size or time), only the new
 * bytes hashed. Anything else is read whole.
 */
export async function fileRecord(
  file: FileRef,
  known: FileRecord | undefined,
): Promise<{ record: FileRecord; change: FileChange }> {
  try {
    const info = await stat(file.path);
    if (known !== undefined && known.size === info.size && known.mtimeMs === info.mtimeMs && known.ino === info.ino)
      return { record: known, change: { kind: 'same' } };
    if (known !== undefined && known.endsWithNewline === true && info.size > known.size) {
      const blocks = await grownBlocks(file.path, known.blocks);
      if (blocks !== null) return { record: recordOf(blocks, info), change: { kind: 'grown', known } };
    }
    const record = recordOf(await storedBlocks(file.path), info);
    return { record, change: known !== undefined && known.hash === record.hash ? { kind: 'same' } : { kind: 'whole' } };
  } catch (error) {
    if (error instanceof SnapshotError) throw error;
    throw new SnapshotError(
      file.display,
      0,
      `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}
