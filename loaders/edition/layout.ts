// Where stored editions live under STATE_DIR, and how an edition and its market parts are laid out.

import { join } from 'node:path';
import type { ResourceLimits } from 'node:worker_threads';
import type { Market } from '../../engine/markets.js';
import type { MacroPoint, Manifest } from '../snapshot/parsed-snapshot.js';
import type { FileRecord } from './file-hashes.js';
import type { PackIndex } from './market-pack.js';

/**
 * An edition is one stored snapshot version: `<state>/snapshots/<version>/edition.json`
 * naming one part per market. A part is an LMDB environment of one market's columns,
 * `<state>/snapshots/parts/<market>-<hash>/`, named by the content hash of that market's
 * files: an edition whose market did not change shares the part of the edition before it,
 * so a reload writes only the markets that changed. `current.json` names the edition to
 * serve. Parts and edition files are written whole in temporary folders and renamed into
 * place; nothing stored is ever rewritten.
 */
export const snapshotsDir = (stateDir: string): string => join(stateDir, 'snapshots');
export const editionDir = (stateDir: string, version: string): string => join(snapshotsDir(stateDir), version);
export const editionFile = (stateDir: string, version: string): string =>
  join(editionDir(stateDir, version), 'edition.json');
export const partsDir = (stateDir: string): string => join(snapshotsDir(stateDir), 'parts');
export const partDir = (stateDir: string, part: string): string => join(partsDir(stateDir), part);
/** The LMDB file of a part (lmdb-js keeps `data.mdb-lock` beside it). */
export const envFile = (dir: string): string => join(dir, 'data.mdb');
export const currentPointer = (stateDir: string): string => join(snapshotsDir(stateDir), 'current.json');
/**
 * What a running store (the store child, `npm run load`) will name, `<state>/snapshots/.store-<pid>.json`
 * (StoreMarker): while its process lives, pruning keeps those parts and that edition.
 */
export const storeMarker = (stateDir: string, pid: number): string =>
  join(snapshotsDir(stateDir), `.store-${pid}.json`);

/**
 * An edition's version names its folder: a plain name (the manifest id's letters, digits, '.', '-'
 * and '_', then the content hash), never a path; a pointer naming anything else is refused.
 */
export const isVersionName = (name: string): boolean =>
  /^[A-Za-z0-9._-]{1,128}$/.test(name) && name !== '.' && name !== '..' && name !== 'parts';

/**
 * Bumped when the stored layout changes; a folder stored in another format is read again.
 * 4: a part's meta holds the crc32 of its pack, edition.json a checksum of its own content, and
 * each file's record its blocks (a file that grew is read from where it ended). (3 held the pack's
 * sha256 and no blocks: its parts would fail the crc32 check as damaged.)
 */
export const FORMAT = 4;

/**
 * lmdb-js answers a value of this size or more as a view of the memory map (zero-copy, valid
 * while the environment is open: `SHARED_BUFFER_THRESHOLD` in its src/lmdb-js.h); a smaller
 * one is copied into a buffer the next read reuses.
 */
export const MAPPED_VALUE_BYTES = 16 * 1024 * 1024;

/**
 * The memory map every part is opened read-only with, whatever its file's size (which it must
 * exceed). lmdb-js 3.5.6 keeps one V8 backing store per map address for the life of the process,
 * with the size of the first map there: a larger part mapped later at an address a closed one
 * used would be read through the old, shorter buffer ("Invalid typed array length"). With one
 * size for every map, a reused address finds a buffer of the right size. Address space only: a
 * map of a file reserves no memory and counts against no commit limit.
 */
export const PART_MAP_BYTES = 2 ** 36;

/**
 * The limits of the threads that read parts besides the main one: their old generation's cap. lmdb-js hands a mapped value
 * out of a buffer over a 4 GiB window of the map, which V8 counts as external memory; a jump of
 * more than half the old generation's cap since its last full collection (2 GiB by default here)
 * is answered at once by a full, memory-reducing one: one per part opened, again per part let go,
 * 6–28 ms each, back to back at a reload on every serving thread. Above 8 GiB the jump is under
 * the half, and V8 marks incrementally instead (pauses of about a millisecond). A cap, not a
 * reservation: a heap takes what its thread keeps.
 * The serving threads and pool workers are given it. The main thread's is the process's: it keeps
 * V8's default, as `--max-old-space-size` costs each start Node's embedded code cache (~35 ms,
 * more than its four collections then); docs/operators.md offers the flag for its reload pauses.
 */
export const PART_READER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 8448 };

/** A part's environment: `meta` (msgpack, PartMeta) in the root; the market's pack (market-pack.ts) under DATA_KEY in db DATA_DB. */
export const DATA_DB = 'market';
export const DATA_KEY = 'pack';

/** What a part holds besides its binary values (the `meta` record, msgpack). */
export interface PartMeta {
  format: number;
  market: Market;
  symbols: string[];
  names: (string | null)[];
  marketNames: (string | null)[];
  marketTypes: (string | null)[];
  rows: number;
  fundamentalColumns: string[];
  /** Where each array lies in the pack. */
  index: PackIndex;
  /** Rows of the snapshot table (the market's symbols). */
  snapshotSize: number;
  /** Earliest and latest K-line day of the market, or null without rows. */
  firstDate: number | null;
  lastDate: number | null;
  /** crc32 of the pack as written: the content a served part is checked against (part-check.ts). */
  packCrc32: number;
}

/** A market of an edition: the part holding it. */
export interface EditionMarket {
  market: Market;
  part: string;
  rows: number;
  /**
   * The part (of the edition served when this one was stored) whose K-lines this part holds
   * unchanged, with only rows dated after the market's last day added: a merge of appended days.
   * Absent when the market was read whole, or a merged row is dated on or before that day.
   */
  appendsTo?: string;
}

/** The content of edition.json. */
export interface EditionMeta {
  format: number;
  /** The data version answered in `X-Data-Version`: `<manifest id>.<12 hex of the content hash>`. */
  version: string;
  manifest: Manifest;
  contentHash: string;
  /** Paths, sizes and mtimes of the source files: an unchanged folder is recognised without reading it. */
  fingerprint: string;
  /** Absolute path of the folder it was read from (what SIGHUP re-reads). */
  source: string;
  storedAt: string;
  rows: number;
  /** Each file read, by its path in the folder: its identity and blocks and what the file system said of it (what a reload compares). */
  files: Record<string, FileRecord>;
  markets: EditionMarket[];
  macro: MacroPoint[];
}

/**
 * edition.json as written: the meta and `checksum`, the sha256 (hex) of the meta's JSON text
 * (`JSON.stringify` of the meta without it, which a parse and stringify give back exactly), so an
 * edited or damaged file is told from a stored one.
 */
export type EditionFile = EditionMeta & { checksum: string };

/** The content of current.json. */
export interface CurrentPointer {
  version: string;
  source: string;
  fingerprint: string;
}

/** What a running store will name (storeMarker): the parts of the edition it stores, then that edition. */
export interface StoreMarker {
  parts: string[];
  version: string | null;
}
