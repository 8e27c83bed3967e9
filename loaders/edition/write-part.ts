// Writes one validated market as a part: an LMDB environment of its meta and its packed columns.

import { statfsSync } from 'node:fs';
import { mkdir, open as openFile, rename, rm, truncate } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { open } from 'lmdb';
import type { KlineColumns } from '../../engine/dataset/kline-columns.js';
import { deriveSnapshots } from '../../engine/kernels/derive-snapshot.js';
import { tradingDays } from '../../engine/kernels/trading-days.js';
import type { ParsedMarket } from '../snapshot/parsed-snapshot.js';
import { setAside } from './damage.js';
import { DATA_DB, DATA_KEY, envFile, FORMAT, type PartMeta } from './layout.js';
import { fillPack, type PackIndex, packMarket } from './market-pack.js';
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
 * Stores `m` as the part at `dir`: its snapshot table computed now (every detail column, the
 * CPU-heavy part of serving it), everything packed into one value, written in a temporary
 * folder and renamed into place. With `sync` (the default) it is forced to disk before the
 * rename, so a crash never leaves half a part; without, the caller syncs it (`syncPart`) before
 * anything durable names it (the pointer), and may serve it meanwhile. A part is never
 * rewritten: one already at `dir` holds the same content and is kept.
 */
export async function writePart(
  m: ParsedMarket & { pack?: Prepacked },
  dir: string,
  options: { sync?: boolean } = {},
): Promise<PartMeta> {
  const snapshots = deriveSnapshots(m.market, m.klines, m.fundamentals);
  const [firstDate, lastDate] = dateSpan(m.klines);
  // stored with the columns: each thread would otherwise pass over every row's date on its first calendar, cross-section or batch of a day
  const days =
    m.pack?.days ??
    (firstDate === null || lastDate === null ? new Int32Array(0) : tradingDays(m.klines.date, firstDate, lastDate));
  const arrays = { klines: m.klines, fundamentals: m.fundamentals, snapshots, tradingDays: days };
  let bytes: Buffer;
  let index: PackIndex;
  if (m.pack === undefined) ({ bytes, index } = packMarket(arrays));
  else ({ bytes, index } = m.pack), fillPack(bytes, index, arrays); // the K-lines are in it already

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
  refuseWithoutRoom(dir, bytes.length);
  // Named by this process: a temporary whose process is gone (killed) is deleted by the next prune.
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    await mkdir(tmp, { recursive: true });
    // noSync: nothing reads this environment before the explicit fsync. useWritemap: the value is copied
    // straight into the map (without, LMDB copies it into pages of its own first: 4 s for ashare's pack here, against 0.7).
    const env = open({
      path: envFile(tmp),
      encoding: 'msgpack',
      noSync: true,
      useWritemap: true,
      mapSize: Math.ceil(bytes.length * 1.2) + 64 * 1024 * 1024,
    });
    try {
      const data = env.openDB({ name: DATA_DB, encoding: 'binary' });
      env.transactionSync(() => {
        data.putSync(DATA_KEY, bytes);
        env.putSync('meta', meta);
      });
    } finally {
      await env.close();
    }
    // Written through the map, the file was extended to the map's size: cut back to the pages it holds.
    const used = usedBytes(envFile(tmp));
    if (used !== null) await truncate(envFile(tmp), used);
    if (options.sync !== false) await syncFile(envFile(tmp));
    // A part is named by its content: one already there (another loader's, or in use) is the same bytes and stays.
    await rename(tmp, dir).catch(async (error: unknown) => {
      if (partFileProblem(dir) !== null) throw error;
      await rm(tmp, { recursive: true, force: true });
    });
  } catch (error) {
    // A full disk, or any other failure: no half-written part is left behind.
    await rm(tmp, { recursive: true, force: true }).catch(() => {});
    throw partNotWritten(dir, error);
  }
  return meta;
}

/** Room kept beside a part's pack for its meta, LMDB's pages and the edition files written after it. */
const PART_MARGIN_BYTES = 4 << 20;

/**
 * Throws (ENOSPC, naming the part) when the disk under `dir` cannot hold a pack of `packBytes`.
 * Written through the map, a page the disk has no room for is not an error but SIGBUS, which ends
 * the process: so the room is asked for before a byte is written.
 */
function refuseWithoutRoom(dir: string, packBytes: number): void {
  let free: number;
  try {
    const s = statfsSync(dirname(dir));
    free = s.bavail * s.bsize;
  } catch {
    return; // the file system cannot be asked: the write says what it says
  }
  const needed = packBytes + PART_MARGIN_BYTES;
  if (free >= needed) return;
  const mb = (n: number): string => (n / 1e6).toFixed(1);
  const error: NodeJS.ErrnoException = new Error(
    `part ${basename(dir)} could not be written (No space left on device: it needs ${mb(needed)} MB, its disk has ${mb(free)} MB free)`,
  );
  error.code = 'ENOSPC';
  throw error;
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
  let full = false;
  try {
    full = statfsSync(dirname(dir)).bavail === 0;
  } catch {
    // the file system cannot be asked: the error says what it says
  }
  const wrapped: NodeJS.ErrnoException = new Error(
    `part ${basename(dir)} could not be written (${error.message}${full ? '; its disk is full' : ''})`,
  );
  wrapped.code = full ? 'ENOSPC' : (code ?? 'EIO');
  return wrapped;
}
