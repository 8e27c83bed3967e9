// A file's content identity, kept per fixed-size block: a sha256 of each block (the identity is
// the sha256 of their list) and a crc32 of each (to check at memory bandwidth that a stored
// prefix is unchanged). A file that grew is identified by hashing only its new blocks.

import { createHash, type Hash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

/** Bytes per block: large enough that the lists stay short (a 1 GB file: 256 of each), small enough that re-hashing a file's last block is cheap. */
export const BLOCK_BYTES = 4 * 1024 * 1024;

/** What a file's bytes as stored were, block by block. */
export interface FileBlocks {
  size: number;
  /** sha256 (hex) of each block; the last may be short. */
  sha: string[];
  /** crc32 of each block, alike. */
  crc: number[];
}

/** The identity of `blocks`: sha256 over the size and each block's sha256 (what a content hash names). */
export function identityOf(blocks: FileBlocks): string {
  const hash = createHash('sha256').update(`blocks ${BLOCK_BYTES} ${blocks.size}\n`);
  for (const sha of blocks.sha) hash.update(sha);
  return hash.digest('hex');
}

/** Hashes bytes as they come, block by block (feed it a file's bytes in order, then `done`). */
export class BlockHasher {
  private readonly blocks: FileBlocks;
  private sha: Hash;
  private crc = 0;
  /** Bytes of the block under way. */
  private filled = 0;

  /** A fresh hasher, or one that goes on from `prefix` (its last block, if short, re-fed first by the caller). */
  constructor(prefix: FileBlocks | null = null) {
    this.blocks =
      prefix === null ? { size: 0, sha: [], crc: [] } : { ...prefix, sha: [...prefix.sha], crc: [...prefix.crc] };
    this.sha = createHash('sha256');
  }

  update(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) {
      const take = Math.min(BLOCK_BYTES - this.filled, bytes.length - at);
      const piece = bytes.subarray(at, at + take);
      this.sha.update(piece);
      this.crc = crc32(piece, this.crc);
      this.filled += take;
      this.blocks.size += take;
      at += take;
      if (this.filled === BLOCK_BYTES) this.close();
    }
  }

  done(): FileBlocks {
    if (this.filled > 0) this.close();
    return this.blocks;
  }

  private close(): void {
    this.blocks.sha.push(this.sha.digest('hex'));
    this.blocks.crc.push(this.crc >>> 0);
    this.sha = createHash('sha256');
    this.crc = 0;
    this.filled = 0;
  }
}

/**
 * Whether the first `known.size` bytes of the file at `path` are the bytes `known` recorded,
 * checked by every block's crc32 (the file is read once, at memory bandwidth); and, when they
 * are, the blocks of the whole file as it is now (sha256 and crc32 of the new bytes and of the
 * block they extend). Null when the prefix differs (an edit, a truncation) or cannot be read.
 */
export async function grownBlocks(path: string, known: FileBlocks): Promise<FileBlocks | null> {
  const handle = await open(path, 'r').catch(() => null);
  if (handle === null) return null;
  try {
    const size = (await handle.stat()).size;
    if (size < known.size) return null;
    const buffer = Buffer.allocUnsafe(BLOCK_BYTES);
    const full = Math.floor(known.size / BLOCK_BYTES);
    // Whole blocks of the prefix: their crc32 only.
    for (let b = 0; b < full; b++) {
      const { bytesRead } = await handle.read(buffer, 0, BLOCK_BYTES, b * BLOCK_BYTES);
      if (bytesRead !== BLOCK_BYTES || crc32(buffer) >>> 0 !== known.crc[b]) return null;
    }
    // The block the prefix ends in (if short): its recorded part checked, then hashed again with what follows.
    const hasher = new BlockHasher({
      size: full * BLOCK_BYTES,
      sha: known.sha.slice(0, full),
      crc: known.crc.slice(0, full),
    });
    let at = full * BLOCK_BYTES;
    const partial = known.size - at;
    if (partial > 0) {
      const { bytesRead } = await handle.read(buffer, 0, partial, at);
      if (bytesRead !== partial || crc32(buffer.subarray(0, partial)) >>> 0 !== known.crc[full]) return null;
      hasher.update(buffer.subarray(0, partial));
      at += partial;
    }
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, BLOCK_BYTES, at);
      if (bytesRead === 0) break;
      hasher.update(buffer.subarray(0, bytesRead));
      at += bytesRead;
    }
    return hasher.done();
  } finally {
    await handle.close();
  }
}

/** The blocks of the file at `path` as stored (a gzip's compressed bytes), read once. */
export async function storedBlocks(path: string): Promise<FileBlocks> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(BLOCK_BYTES);
    const hasher = new BlockHasher();
    for (let at = 0; ; ) {
      const { bytesRead } = await handle.read(buffer, 0, BLOCK_BYTES, at);
      if (bytesRead === 0) break;
      hasher.update(buffer.subarray(0, bytesRead));
      at += bytesRead;
    }
    return hasher.done();
  } finally {
    await handle.close();
  }
}
