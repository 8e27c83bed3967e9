// Checks of a stored part: its file's structure before it is mapped (cheap, at every open), and the
// crc32 of its pack against the one stored with it (every byte read: in the background, part-verify.ts).

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { DamagedFile } from './damage.js';
import { envFile } from './layout.js';
import type { PackIndex } from './market-pack.js';

/**
 * lmdb-js's LMDB (mdb.c): a page header of 24 bytes (page number, txn id, pad, flags, lower, upper),
 * then on pages 0 and 1 the meta: magic, data version, address, map size, the free and main trees
 * (48 bytes each; the first's `md_pad` is the page size), the last page used, the txn id.
 */
const PAGE_HEADER = 24;
const META = {
  magic: PAGE_HEADER,
  version: PAGE_HEADER + 4,
  pageSize: PAGE_HEADER + 24,
  lastPage: PAGE_HEADER + 120,
  txnId: PAGE_HEADER + 128,
} as const;
const MAGIC = 0xbeefc0de;
const DATA_VERSION = 2;
const MIN_PAGE = 512;
const MAX_PAGE = 65536;

interface Meta {
  pageSize: number;
  lastPage: number;
  txnId: bigint;
}

/** The meta at `page` of `bytes`, or what is wrong with it. */
function readMeta(bytes: Buffer, page: number): Meta | string {
  const magic = bytes.readUInt32LE(META.magic);
  if (magic !== MAGIC)
    return `meta page ${page} is not an LMDB meta page (magic 0x${magic.toString(16).padStart(8, '0')})`;
  const version = bytes.readUInt32LE(META.version) & 0xffff;
  if (version !== DATA_VERSION) return `meta page ${page} is of LMDB data version ${version}, not ${DATA_VERSION}`;
  const pageSize = bytes.readUInt32LE(META.pageSize);
  if (pageSize < MIN_PAGE || pageSize > MAX_PAGE || (pageSize & (pageSize - 1)) !== 0)
    return `meta page ${page} gives a page size of ${pageSize}`;
  return { pageSize, lastPage: Number(bytes.readBigUInt64LE(META.lastPage)), txnId: bytes.readBigUInt64LE(META.txnId) };
}

/**
 * What is wrong with the LMDB file of the part at `dir`, or null when its structure holds: both
 * meta pages are LMDB's, and the file holds every page the newer one names. LMDB maps the file and
 * reads the pages its meta names: a file cut short (a copy that stopped, a full disk) is read past
 * its end, which ends the process with SIGBUS instead of an error. Reads two pages.
 */
export function partFileProblem(dir: string): string | null {
  let fd: number;
  try {
    fd = openSync(envFile(dir), 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'missing' : `cannot be read (${code ?? String(error)})`;
  }
  try {
    const size = fstatSync(fd).size;
    if (size < 2 * MIN_PAGE) return `${size} bytes: an LMDB file holds two meta pages at least`;
    const first = Buffer.alloc(PAGE_HEADER + 136);
    readSync(fd, first, 0, first.length, 0);
    const meta0 = readMeta(first, 0);
    if (typeof meta0 === 'string') return meta0;
    if (size < 2 * meta0.pageSize) return `${size} bytes: cut short within its meta pages (pages of ${meta0.pageSize})`;
    const second = Buffer.alloc(first.length);
    readSync(fd, second, 0, second.length, meta0.pageSize);
    const meta1 = readMeta(second, 1);
    if (typeof meta1 === 'string') return meta1;
    if (meta1.pageSize !== meta0.pageSize)
      return `its meta pages disagree on the page size (${meta0.pageSize}, ${meta1.pageSize})`;
    // LMDB reads the meta of the later transaction.
    const meta = meta1.txnId > meta0.txnId ? meta1 : meta0;
    const needed = (meta.lastPage + 1) * meta.pageSize;
    if (size < needed)
      return `${size} bytes, but its meta page names ${meta.lastPage + 1} pages of ${meta.pageSize} (${needed} bytes): cut short`;
    return null;
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes an LMDB file's pages take, as its newer meta page names them (null when its meta
 * cannot be read). With `useWritemap`, LMDB extends a file to its map size while writing: a part
 * is cut back to this once written, so it holds no unused tail (and a cut is damage, not slack).
 */
export function usedBytes(path: string): number | null {
  const fd = openSync(path, 'r');
  try {
    const header = Buffer.alloc(PAGE_HEADER + 136);
    readSync(fd, header, 0, header.length, 0);
    const meta0 = readMeta(header, 0);
    if (typeof meta0 === 'string') return null;
    readSync(fd, header, 0, header.length, meta0.pageSize);
    const meta1 = readMeta(header, 1);
    if (typeof meta1 === 'string') return null;
    const meta = meta1.txnId > meta0.txnId ? meta1 : meta0;
    return (meta.lastPage + 1) * meta.pageSize;
  } finally {
    closeSync(fd);
  }
}

/** Throws DamagedFile when the part at `dir` fails partFileProblem. */
export function checkPartFile(dir: string): void {
  const problem = partFileProblem(dir);
  if (problem !== null) throw new DamagedFile(envFile(dir), problem, dir);
}

/** The byte length of a pack with `index` (market-pack.ts: every array at an 8-byte aligned offset, one after another). */
export function packBytes(index: PackIndex): number {
  let end = 0;
  for (const [offset, length, kind] of Object.values(index))
    end = Math.max(end, offset + Math.ceil((length * (kind === 'f64' ? 8 : 4)) / 8) * 8);
  return end;
}

/**
 * The crc32 of a pack's bytes (what finds a damaged page at memory bandwidth; a store computes it
 * on its way to serving a day in a second). lmdb-js answers a small value in a reused 16 MiB buffer
 * whose own `length` property says the value's size: the view is cut to it.
 */
export const packCrc32 = (bytes: Uint8Array): number => crc32(bytes.subarray(0, bytes.length)) >>> 0;
