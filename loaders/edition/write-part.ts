// Writes one validated market as a part: an LMDB environment of its meta and its packed columns.

import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { open as openFile, rename, rm, truncate } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import type { KlineColumns } from '../../engine/dataset/kline-columns.js';
import { deriveSnapshots } from '../../engine/kernels/derive-snapshot.js';
import { tradingDays } from '../../engine/kernels/trading-days.js';
import { freeBytes } from '../free-space.js';
import type { ParsedMarket } from '../snapshot/parsed-snapshot.js';
import { setAside } from './damage.js';
import { DATA_DB, DATA_KEY, envFile, FORMAT, type PartMeta } from './layout.js';
import { fillPack, type PackIndex, packIndexOf } from './market-pack.js';
import { packCrc32, partFileProblem, usedBytes } from './part-check.js';

/** A pack a merge laid out and wrote its columns into (`packLayout`), and the market's trading days in it. */
export interface Prepacked {
  bytes: Buffer;
  index: PackIndex;
  days: Int32Array;
}

/** Earliest and latest K-line day of the market, or null without rows. */
export function dateSpan(klines: KlineColumns): [number | null, number | null] {
  let first = Infinity;
  let last = -Infinity;
  const { offsets, date } = klines;
  for (let i = 0; i + 1 < offsets.length; i++) {
    if (offsets[i + 1] === offsets[i]) continue;
    first = Math.min(first, date[offsets[i]]);
    last = Math.max(last, date[offsets[i + 1] - 1]);
  }
  return first === Infinity ? [null, null] : [first, last];
}

/**
 * True when a whole part is stored at `dir` (parts are renamed into place only once written and
 * synced) and its file's structure holds; one that fails it is set aside (damage.ts), so the
 * market is stored again.
 */
export async function partUsable(dir: string, onSetAside?: (file: string, reason: string) => void): Promise<boolean> {
  const problem = partFileProblem(dir);
  if (problem === null) return true;
  if (problem !== 'missing' && (await setAside(dir)) !== null) onSetAside?.(envFile(dir), problem);
  return false;
}

/**
 * A part being written, in a temporary folder: its environment open, its pack's bytes committed as
 * zeros and viewed in the memory map, so the columns are written straight into the file's pages
 * (a merge copies the stored rows there; `writePart` the rest) rather than into memory of their
 * own and then copied again. Nothing reads it before `writePart` renames it into place.
 */
export interface PartInProgress {
  readonly tmp: string;
  /** The pack: a view of the part's memory map (valid until the part is written or abandoned), or of memory of its own (`inMap` false). */
  readonly bytes: Buffer;
  /** False for a pack lmdb-js answers with a copy (under 16 MiB): it is put whole when the part is written. */
  readonly inMap: boolean;
  readonly env: RootDatabase;
}

/** Opens a part in progress for `dir` with a pack of `size` bytes (zeros). Throws ENOSPC when the disk cannot hold it. */
export function beginPart(dir: string, size: number): PartInProgress {
  refuseWithoutRoom(dir, size);
  // Named by this process: a temporary whose process is gone (killed) is deleted by the next prune.
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(tmp, { recursive: true });
  let env: RootDatabase | undefined;
  try {
    // noSync: nothing reads this environment before the explicit fsync. useWritemap: values are written in the map.
    env = open({ path: envFile(tmp), encoding: 'msgpack', noSync: true, useWritemap: true, mapSize: mapSizeFor(size) });
    const data = env.openDB({ name: DATA_DB, encoding: 'binary' });
    // The pages the pack will take, made by write() in bulk first: a page a shared map touches first
    // costs a fault each (1.4 s for ashare's 600 MB here, against 0.25 s written so, then 0.35 s put).
    const from = usedBytes(envFile(tmp)) ?? 0;
    writeZeros(envFile(tmp), from, size + (1 << 20));
    const value = Buffer.alloc(size);
    env.transactionSync(() => data.putSync(DATA_KEY, value));
    const bytes = packInMap(data);
    if (bytes !== null && bytes.length !== size) throw new Error(`part ${basename(dir)}: the pack was not stored`);
    // A value under 16 MiB is answered in lmdb-js's reused buffer, not the map: then the pack is memory of its own.
    const inMap = (bytes?.buffer as (ArrayBuffer & { isSharedMap?: boolean }) | undefined)?.isSharedMap === true;
    return { tmp, bytes: inMap ? bytes! : value, inMap, env };
  } catch (error) {
    void env?.close();
    rmSync(tmp, { recursive: true, force: true });
    throw partNotWritten(dir, error);
  }
}

/**
 * The stored pack as lmdb-js answers it, or null where it cannot be viewed: lmdb-js keeps one
 * buffer per map address with the size of the first map there (layout.ts, PART_MAP_BYTES), so a
 * larger map where a smaller one was is refused (RangeError). The pack is then written from
 * memory of its own, as a small one is.
 */
function packInMap(data: { getBinaryFast(key: string): Buffer | undefined }): Buffer | null {
  try {
    return data.getBinaryFast(DATA_KEY) ?? null;
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/** Closes and deletes a part in progress that will not be written (its merge was refused). */
export async function abandonPart(part: PartInProgress): Promise<void> {
  await part.env.close();
  await rm(part.tmp, { recursive: true, force: true });
}

const mapSizeFor = (packBytes: number): number => Math.ceil(packBytes * 1.2) + 64 * 1024 * 1024;

/** Room kept beside a part's pack for its meta, LMDB's pages and the edition files written after it. */
const PART_MARGIN_BYTES = 4 << 20;

/**
 * Throws (ENOSPC, naming the part) when the disk under `dir` cannot hold a pack of `packBytes`.
 * Written through the map, a page the disk has no room for is not an error but SIGBUS, which ends
 * the process: so the room is asked for before a byte is written.
 */
function refuseWithoutRoom(dir: string, packBytes: number): void {
  const free = freeBytes(dirname(dir));
  const needed = packBytes + PART_MARGIN_BYTES;
  if (free === null || free >= needed) return; // unknown: the write says what it says
  const mb = (n: number): string => (n / 1e6).toFixed(1);
  const error: NodeJS.ErrnoException = new Error(
    `part ${basename(dir)} could not be written (No space left on device: it needs ${mb(needed)} MB, its disk has ${mb(free)} MB free)`,
  );
  error.code = 'ENOSPC';
  throw error;
}

/** Writes zeros over [from, to) of a file, in large writes. */
function writeZeros(path: string, from: number, to: number): void {
  const chunk = Buffer.alloc(Math.min(8 << 20, Math.max(0, to - from)));
  const fd = openSync(path, 'r+');
  try {
    for (let at = from; at < to; at += chunk.length) writeSync(fd, chunk, 0, Math.min(chunk.length, to - at), at);
  } finally {
    closeSync(fd);
  }
}

/**
 * Stores `m` as the part at `dir`: its snapshot table computed now (every detail column, the
 * CPU-heavy part of serving it), everything packed into one value (into `part`'s map when a
 * merge began it, else into a part begun here), written in a temporary folder and renamed into
 * place. With `sync` (the default) it is forced to disk before the rename, so a crash never
 * leaves half a part; without, the caller syncs it (`syncPart`) before anything durable names it
 * (the pointer), and may serve it meanwhile. A part is never rewritten: one already at `dir`
 * holds the same content and is kept.
 */
export async function writePart(
  m: ParsedMarket & { pack?: Prepacked },
  dir: string,
  options: { sync?: boolean; part?: PartInProgress } = {},
): Promise<PartMeta> {
  const snapshots = deriveSnapshots(m.market, m.klines, m.fundamentals);
  const [firstDate, lastDate] = dateSpan(m.klines);
  // stored with the columns: each thread would otherwise pass over every row's date on its first calendar, cross-section or batch of a day
  const days =
    m.pack?.days ??
    (firstDate === null || lastDate === null ? new Int32Array(0) : tradingDays(m.klines.date, firstDate, lastDate));
  const arrays = { klines: m.klines, fundamentals: m.fundamentals, snapshots, tradingDays: days };
  const { index, size } =
    m.pack === undefined ? packIndexOf(arrays) : { index: m.pack.index, size: m.pack.bytes.length };
  const part = options.part ?? beginPart(dir, size);
  try {
    const bytes = part.bytes;
    fillPack(bytes, index, arrays); // a merge's K-lines are in it already
    const meta: PartMeta = {
      format: FORMAT,
      market: m.market,
      symbols: m.symbols,
      names: m.names,
      marketNames: m.marketNames,
      marketTypes: m.marketTypes,
      rows: m.klines.date.length,
      fundamentalColumns: Object.keys(m.fundamentals.columns),
      index,
      snapshotSize: snapshots.size,
      firstDate,
      lastDate,
      packCrc32: packCrc32(bytes),
    };
    part.env.transactionSync(() => {
      if (!part.inMap) part.env.openDB({ name: DATA_DB, encoding: 'binary' }).putSync(DATA_KEY, bytes);
      part.env.putSync('meta', meta);
    });
    await part.env.close();
    // Written through the map, the file was extended to the map's size: cut back to the pages it holds.
    const used = usedBytes(envFile(part.tmp));
    if (used !== null) await truncate(envFile(part.tmp), used);
    if (options.sync !== false) await syncFile(envFile(part.tmp));
    // A part is named by its content: one already there (another loader's, or in use) is the same bytes and stays.
    await rename(part.tmp, dir).catch(async (error: unknown) => {
      if (partFileProblem(dir) !== null) throw error;
      await rm(part.tmp, { recursive: true, force: true });
    });
    return meta;
  } catch (error) {
    // A full disk, or any other failure: no half-written part is left behind.
    await part.env.close().catch(() => {});
    await rm(part.tmp, { recursive: true, force: true }).catch(() => {});
    throw partNotWritten(dir, error);
  }
}

/** Forces a file's bytes to disk. */
async function syncFile(path: string): Promise<void> {
  const file = await openFile(path, 'r+');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}

/** Forces a part written without `sync` to disk (before a pointer names an edition holding it). */
export const syncPart = (dir: string): Promise<void> => syncFile(envFile(dir));

/**
 * The error of a part that could not be written, naming it and saying when its disk is full:
 * LMDB reports a failed synchronous commit on a full disk as a bare "Input/output error".
 */
function partNotWritten(dir: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (!(error instanceof Error) || (code === undefined && !/error/i.test(error.message))) return error;
  const full = freeBytes(dirname(dir)) === 0;
  const wrapped: NodeJS.ErrnoException = new Error(
    `part ${basename(dir)} could not be written (${error.message}${full ? '; its disk is full' : ''})`,
  );
  wrapped.code = full ? 'ENOSPC' : (code ?? 'EIO');
  return wrapped;
}
