// Stores a snapshot folder as an edition: a market whose files did not change keeps its part, a
// market whose K-line files only grew (or gained day files) has its new rows merged into its
// part's columns, any other market is read whole.

import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Market } from '../../engine/markets.js';
import type { FileRead } from '../snapshot/assemble-market.js';
import { BLOCK_BYTES, identityOf } from '../snapshot/block-hash.js';
import { type KlinePiece, readKlineLayout } from '../snapshot/kline-pieces.js';
import { type ParsedFile, pieceViews, rowsFor } from '../snapshot/kline-join.js';
import { loadLimits } from '../snapshot/limits.js';
import type { ParsedMarket } from '../snapshot/parsed-snapshot.js';
import type { FileRef } from '../snapshot/read-csv.js';
import { readManifest } from '../snapshot/read-manifest.js';
import {
  contentHashOf,
  contentLine,
  listSnapshotFiles,
  type MarketFiles,
  readMacroOf,
  readMarkets,
  type ReadOptions,
  countOf,
  oneAtATime,
  resultOf,
  type SnapshotFiles,
} from '../snapshot/read-snapshot.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';
import { taskPool } from '../snapshot/task-pool.js';
import type { MarketTaskResult } from '../snapshot/read-market-task.js';
import { DAY_FILES_FOLDER } from '../snapshot/snapshot-files.js';
import type { FileChange, FileRecord } from './file-hashes.js';
import { folderFingerprint } from './fingerprint.js';
import { type EditionMarket, type EditionMeta, FORMAT, PART_MAP_BYTES, partDir, partsDir } from './layout.js';
import type { MergeTask } from './merge-market.js';
import { runStoreTask, type StoreTask, type StoreTaskResult } from './store-worker.js';
import {
  endStore,
  markStore,
  partsSound,
  pruneEditions,
  readCurrent,
  readEditionMetaOrNull,
  storedByFingerprint,
  syncEdition,
  writeEdition,
  writePointer,
} from './stored-editions.js';
import { partUsable, syncPart } from './write-part.js';

export interface StoreResult {
  version: string;
  /** True when the folder's content was already stored: nothing was written. */
  unchanged: boolean;
  /** True when the folder was recognised by its fingerprint alone, without reading it. */
  skippedRead: boolean;
  rows: number;
  seconds: number;
  /** Markets read whole, markets whose new rows were merged into their stored part, markets whose part was taken as it was. */
  parsed: Market[];
  merged: Market[];
  reused: Market[];
}

export interface StoreOptions extends ReadOptions {
  /** Told once the markets to read are known: the K-line files to read (for a progress estimate). */
  onPlan?: (files: FileRef[]) => void | Promise<void>;
  /** Told once every file read is valid and the markets read are about to be stored (their rows), then each market's rows as it is stored. */
  onStore?: (totalRows: number) => void;
  onStored?: (rows: number) => void;
  /** Told of each stored part found damaged (set aside, stored again): its file and what is wrong. */
  onSetAside?: (file: string, reason: string) => void;
  /**
   * Told once the new edition is written, before its files are forced to disk and the pointer
   * names it: it may be served from then on (the page cache holds it; should the machine stop
   * before the pointer moves, the next start opens the edition before and reads the folder again).
   */
  onWritten?: (store: StoreResult) => void | Promise<void>;
  /**
   * KEEP_EDITIONS, counting the edition this store writes: once a part is about to be written,
   * stored editions beyond `keep - 1` that none of `inUse` names are deleted (`pruneEditions`).
   * The disk then never holds more than `keep` editions, and pages of theirs still in memory are
   * what the new parts take (on a VM that hands idle memory back to its host, fresh memory costs
   * about ten times more). Without it, nothing is deleted (the caller prunes after).
   */
  prune?: { keep: number; inUse: readonly string[] };
}

/** A market's part is named by its files' content: equal files, the same part. */
function partName(market: Market, lines: readonly string[]): string {
  return `${market}-${createHash('sha256')
    .update(`${FORMAT}\n${[...lines].sort().join('\n')}`)
    .digest('hex')
    .slice(0, 16)}`;
}

/** How the store runs its tasks: on a pool of worker threads, or (threads 0) here. */
interface Workers {
  run(task: StoreTask): Promise<StoreTaskResult>;
  close(): Promise<void>;
}

function workers(threads: number, onRows: (rows: number) => void): Workers {
  if (threads === 0) return { run: oneAtATime((task: StoreTask) => runStoreTask(task, onRows)), close: async () => {} };
  return taskPool<StoreTask, StoreTaskResult>(new URL('./store-worker.js', import.meta.url).href, threads, (m) =>
    onRows((m as { rows?: number }).rows ?? 0),
  );
}

/**
 * Validates `folder` and stores it as the edition to serve (current.json). A folder unchanged
 * since it was stored (same paths, sizes, mtimes) is not read again; a file unchanged since the
 * served edition read it is not read again; a K-line file that only grew is read from where it
 * ended (its stored bytes checked first, every one); a market whose files all hash as a stored
 * part's is not stored again. A folder that fails validation throws a SnapshotError and leaves
 * everything stored as it was.
 */
export async function storeEdition(folder: string, stateDir: string, options: StoreOptions = {}): Promise<StoreResult> {
  const threads = Math.min(options.threads ?? availableParallelism(), 8);
  const pool = workers(threads, options.onRows ?? (() => {}));
  try {
    return await store(folder, stateDir, options, pool);
  } finally {
    await pool.close();
    await endStore(stateDir).catch(() => {}); // the marker a prune respects (markStore below)
  }
}

async function store(folder: string, stateDir: string, options: StoreOptions, pool: Workers): Promise<StoreResult> {
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;
  const source = resolve(folder);
  const fingerprint = await folderFingerprint(source);
  const known = await storedByFingerprint(stateDir, source, fingerprint);
  if (known !== null) return { ...known, seconds: seconds() };
  const current = await readCurrent(stateDir);
  const served = current === null ? null : readEditionMetaOrNull(stateDir, current.version);
  const limits = loadLimits(options.limits);
  const files = await listSnapshotFiles(source, limits);
  const all = allFiles(files);

  // With nothing stored yet every market is read, and the read hashes each file as it goes: one
  // read of each file, not two (a first start's 1 GB). Otherwise the records tell what to read.
  const firstStore = (await readdir(partsDir(stateDir)).catch(() => [] as string[])).length === 0;
  const early = firstStore ? await readFirst(files, options, pool) : null;
  const records: Record<string, FileRecord> = early?.records ?? {};
  const changes: Record<string, FileChange> = {};
  if (early === null) {
    const knownOf = (f: FileRef): FileRecord | null =>
      (served?.source === source ? served.files[f.display] : undefined) ?? null;
    const recorded = await Promise.all(all.map((f) => pool.run({ kind: 'record', file: f, known: knownOf(f) })));
    recorded.forEach((r, i) => {
      if (r.kind !== 'record') throw new Error('expected a file record');
      if (!r.ok) throw new SnapshotError(r.file, r.line, r.reason);
      records[all[i].display] = r.record;
      changes[all[i].display] = r.change;
    });
    keepLines(records, served);
  }
  const lineOf = (f: FileRef): string => contentLine({ display: f.display, hash: records[f.display].hash });
  const manifest =
    files.manifest === null
      ? {}
      : await readChecked(files.manifest, records, async (f) => {
          const r = await readManifest(f);
          return { value: r.manifest, hash: r.hash };
        });
  const contentHash = contentHashOf(all.map(lineOf));
  const version = `${manifest.id ?? 'snapshot'}.${contentHash.slice(0, 12)}`;
  const plan = files.markets.map((m) => ({
    files: m,
    part: partName(
      m.market,
      [...m.klines, m.symbols, m.fundamentals].filter((f): f is FileRef => f !== null).map(lineOf),
    ),
  }));
  // From here a prune (the server's, another `npm run load`) keeps the parts and the edition this store will name.
  await markStore(stateDir, { parts: plan.map((p) => p.part), version });
  const stored = readEditionMetaOrNull(stateDir, version);
  if (stored !== null && stored.contentHash === contentHash && partsSound(stateDir, stored)) {
    // The same content from another folder (or touched): the edition now names this folder, so the
    // next switch to it is recognised by its fingerprint alone, and its files by their stat.
    keepLines(records, stored);
    if (stored.fingerprint !== fingerprint || stored.source !== source)
      await writeEdition(stateDir, { ...stored, fingerprint, source, files: records });
    await writePointer(stateDir, { version, source, fingerprint });
    return {
      version,
      unchanged: true,
      skippedRead: false,
      rows: stored.rows,
      seconds: seconds(),
      parsed: [],
      merged: [],
      reused: stored.markets.map((m) => m.market),
    };
  }

  // Each market: its part as it is, its new rows merged into the served part, or read whole.
  const toRead: MarketFiles[] = [];
  const toMerge: { m: MarketFiles; base: string }[] = [];
  for (const p of plan) {
    if (early !== null) continue;
    if (await partUsable(partDir(stateDir, p.part), options.onSetAside)) continue;
    const base = mergeBase(p.files, served, source, changes);
    if (base !== null && (await partUsable(partDir(stateDir, base)))) toMerge.push({ m: p.files, base });
    else toRead.push(p.files);
  }
  if (early === null)
    await options.onPlan?.([...toRead.flatMap((m) => m.klines), ...toMerge.flatMap((x) => tailFiles(x.m, changes))]);
  const reads: FileRead[] = [];
  const parsed: ParsedMarket[] = early?.parsed ?? [];
  const partOf = new Map(plan.map((p) => [p.files.market, p.part]));
  // Parts are written from here on (a merge's as soon as it is made): editions beyond KEEP_EDITIONS go first.
  if (options.prune !== undefined && toRead.length + toMerge.length > 0)
    await pruneEditions(stateDir, options.prune.keep - 1, options.prune.inUse);
  // A merge writes its part as soon as it is made (its pack is its thread's): a rejection elsewhere leaves it unnamed, pruned.
  const [wholeMarkets, mergedMarkets] = await Promise.all([
    readMarkets(toRead, { run: (task) => pool.run(task) as Promise<never> }, reads),
    Promise.all(
      toMerge.map(({ m, base }) =>
        merge(m, partDir(stateDir, base), partDir(stateDir, partOf.get(m.market)!), served!, changes, records, pool),
      ),
    ),
  ]);
  parsed.push(...wholeMarkets);
  const rowsOf = new Map<Market, number>();
  /** Markets whose merge only appended later rows: the served part each holds as it was. */
  const appendsTo = new Map<Market, string>();
  for (const [k, merged] of mergedMarkets.entries()) {
    rowsOf.set(merged.market, merged.rows);
    reads.push(...merged.reads);
    if (merged.appendedOnly) appendsTo.set(merged.market, toMerge[k].base);
  }
  // What was read must be what was recorded (else the file changed in between); K-line files learn their lines and rows.
  for (const read of reads) {
    const record = records[read.display];
    if (record === undefined || record.hash !== read.hash) throw changedWhileRead(read.display);
    if (read.lines !== null)
      records[read.display] = { ...record, lines: read.lines, rows: read.rows, endsWithNewline: read.endsWithNewline };
  }
  const macroReads: FileRead[] = [];
  const macro = await readMacroOf(files, macroReads);
  for (const read of macroReads) if (records[read.display]?.hash !== read.hash) throw changedWhileRead(read.display);
  // Each file was read as recorded, but not all at one moment: a file changed, added or removed since
  // the start would make an edition of a folder that never was (one market's old rows beside another's new).
  if ((await folderFingerprint(source)) !== fingerprint)
    throw new SnapshotError(
      folder,
      0,
      'files changed while the folder was being read; load the folder again once it is complete',
    );

  // Every file is valid: only now is anything written. Parts side by side, not yet forced to disk.
  options.onStore?.(parsed.reduce((sum, m) => sum + m.klines.date.length, 0));
  const written = await Promise.all(
    parsed.map(async (m) => {
      const r = await pool.run({
        kind: 'write',
        market: m,
        dir: partDir(stateDir, partOf.get(m.market)!),
        sync: false,
      });
      if (r.kind !== 'write') throw new Error('expected a written part');
      options.onStored?.(r.meta.rows);
      return [m.market, r.meta.rows] as const;
    }),
  );
  for (const [market, rows] of written) rowsOf.set(market, rows);
  parsed.length = 0; // the columns can go before the next step
  const markets: EditionMarket[] = [];
  for (const p of plan) {
    if (!(await partUsable(partDir(stateDir, p.part))))
      throw new Error(`part ${p.part} went missing while this store ran (deleted by hand?); store the folder again`);
    const base = appendsTo.get(p.files.market);
    markets.push({
      market: p.files.market,
      part: p.part,
      rows: rowsOf.get(p.files.market) ?? (await partRows(stateDir, p.part)),
      ...(base === undefined ? {} : { appendsTo: base }),
    });
  }
  const meta: EditionMeta = {
    format: FORMAT,
    version,
    manifest,
    contentHash,
    fingerprint,
    source,
    storedAt: new Date().toISOString(),
    rows: markets.reduce((sum, m) => sum + m.rows, 0),
    files: records,
    markets,
    macro,
  };
  await writeEdition(stateDir, meta, { sync: false });
  const mergedNames = toMerge.map((x) => x.m.market);
  const parsedNames = [...(early === null ? toRead.map((m) => m.market) : files.markets.map((m) => m.market))];
  const result: StoreResult = {
    version,
    unchanged: false,
    skippedRead: false,
    rows: meta.rows,
    seconds: seconds(),
    parsed: parsedNames,
    merged: mergedNames,
    reused: plan.map((p) => p.files.market).filter((m) => !parsedNames.includes(m) && !mergedNames.includes(m)),
  };
  await options.onWritten?.(result);
  // Durable before the pointer names it: the new parts, then edition.json.
  await Promise.all([...rowsOf.keys()].map((market) => syncPart(partDir(stateDir, partOf.get(market)!))));
  await syncEdition(stateDir, version);
  await writePointer(stateDir, { version, source, fingerprint });
  return { ...result, seconds: seconds() };
}

/**
 * A K-line file recorded again with the content an edition recorded (touched, or its folder moved
 * or copied) keeps the lines that edition counted: its next append is read as a tail, not whole.
 */
function keepLines(records: Record<string, FileRecord>, edition: EditionMeta | null): void {
  for (const [display, record] of Object.entries(records)) {
    const before = edition?.files[display];
    if (record.lines === null && before !== undefined && before.lines !== null && before.hash === record.hash)
      records[display] = { ...record, lines: before.lines, rows: before.rows, endsWithNewline: before.endsWithNewline };
  }
}

/** Every file of the folder the format names. */
function allFiles(files: SnapshotFiles): FileRef[] {
  return [
    files.manifest,
    files.macro,
    ...files.markets.flatMap((m) => [...m.klines, m.symbols, m.fundamentals]),
  ].filter((f): f is FileRef => f !== null);
}

/**
 * The served part a market's new rows can be merged into, or null when it must be read whole: it
 * can when the served edition read the same folder and held the market, and each of its K-line
 * files is as it was, only grew (its stored bytes checked), or is new, none of those it read gone.
 */
function mergeBase(
  m: MarketFiles,
  served: EditionMeta | null,
  source: string,
  changes: Record<string, FileChange>,
): string | null {
  if (served === null || served.source !== source) return null;
  const base = served.markets.find((x) => x.market === m.market);
  if (base === undefined) return null;
  const now = new Set(m.klines.map((f) => f.display));
  for (const display of Object.keys(served.files)) if (isKlineFile(display, m.market) && !now.has(display)) return null; // a file gone: its rows must go too
  for (const f of m.klines) {
    const change = changes[f.display];
    if (change === undefined || (change.kind === 'whole' && served.files[f.display] !== undefined)) return null;
  }
  return base.part;
}

const isKlineFile = (display: string, market: string): boolean =>
  display === `${market}/klines.csv` ||
  display === `${market}/klines.csv.gz` ||
  display.startsWith(`${market}/${DAY_FILES_FOLDER}/`);

/** The K-line files of a merge that are read: the grown ones (their tails) and the new ones. */
function tailFiles(m: MarketFiles, changes: Record<string, FileChange>): FileRef[] {
  return m.klines.filter((f) => changes[f.display]?.kind !== 'same');
}

/** A market's new rows (tails and new files, read as pieces on the pool) merged into its served part. */
async function merge(
  m: MarketFiles,
  partDirectory: string,
  into: string,
  served: EditionMeta,
  changes: Record<string, FileChange>,
  records: Record<string, FileRecord>,
  pool: Workers,
): Promise<{ market: Market; rows: number; reads: FileRead[]; appendedOnly: boolean }> {
  const rowsBefore: Record<string, number> = {};
  const reads: FileRead[] = [];
  const planned: { file: FileRef; piece: KlinePiece; known: FileRecord | null }[] = [];
  for (const file of tailFiles(m, changes)) {
    const change = changes[file.display];
    const { layout, headerBytes } = await readKlineLayout(file);
    const gzip = file.path.endsWith('.gz');
    const base = { path: file.path, display: file.display, limits: file.limits, layout, gzip, end: null };
    if (change.kind === 'grown') {
      const known = change.known;
      const full = Math.floor(known.size / BLOCK_BYTES);
      planned.push({
        file,
        known,
        piece: {
          ...base,
          // A plain tail is hashed from its first block on (the blocks before go on as recorded); a gzip's new members alone.
          start: gzip ? known.size : full * BLOCK_BYTES,
          lineStart: known.size,
          firstLine: known.lines! + 1,
          header: false,
          blocksBefore: gzip
            ? null
            : { size: full * BLOCK_BYTES, sha: known.blocks.sha.slice(0, full), crc: known.blocks.crc.slice(0, full) },
        },
      });
      rowsBefore[file.display] = known.rows ?? 0;
    } else
      planned.push({
        file,
        known: null,
        piece: {
          ...base,
          start: 0,
          lineStart: gzip ? null : headerBytes,
          firstLine: 2,
          header: true,
          blocksBefore: null,
        },
      });
  }
  const counts = await Promise.all(
    planned.map((p) => pool.run({ kind: 'count', piece: p.piece }).then((r) => countOf(r as MarketTaskResult))),
  );
  const rows = rowsFor(counts.map((n) => ({ counts: [n] })));
  const views = pieceViews(
    counts.map((n) => ({ counts: [n] })),
    rows,
  );
  const results = await Promise.all(
    planned.map((p, i) =>
      pool.run({ kind: 'piece', piece: p.piece, into: views[i] }).then((r) => resultOf(r as MarketTaskResult)),
    ),
  );
  const klines: ParsedFile[] = planned.map((p, i) => ({
    file: p.file,
    pieces: [p.piece],
    counts: [counts[i]],
    results: [results[i]],
  }));
  planned.forEach(({ file, piece, known }, i) => {
    const r = results[i];
    if (!r.ok) return; // the merge rejects it, at its line
    // What the tail's blocks make must be what was recorded a moment ago (a gzip's new members are hashed alone: not compared).
    if ((!piece.gzip || known === null) && identityOf(r.blocks) !== records[file.display].hash)
      throw changedWhileRead(file.display);
    reads.push({
      display: file.display,
      blocks: records[file.display].blocks,
      hash: records[file.display].hash,
      lines: (known?.lines ?? 0) + r.lines,
      rows: (known?.rows ?? 0) + r.rows,
      endsWithNewline: r.endsWithNewline,
    });
  });
  const symbolsChanged = changed(m.symbols, m.market, 'symbols', served, changes);
  const fundamentalsChanged = changed(m.fundamentals, m.market, 'fundamentals', served, changes);
  const task: MergeTask = {
    market: m.market,
    partDir: partDirectory,
    // Who symbols.csv lists must be known when fundamentals.csv changed (a symbol may leave both).
    symbols: { file: m.symbols, read: symbolsChanged || (fundamentalsChanged && m.symbols !== null) },
    fundamentals: { file: m.fundamentals, read: fundamentalsChanged },
    klines,
    rows,
    rowsBefore,
    files: m.klines,
  };
  const r = await pool.run({ kind: 'merge', task, dir: into, sync: false });
  if (r.kind !== 'merge') throw new Error('expected a merged market');
  if (!r.ok) throw new SnapshotError(r.file, r.line, r.reason);
  return { market: m.market, rows: r.meta.rows, reads: [...reads, ...r.reads], appendedOnly: r.appendedOnly };
}

/** Whether a market's symbols.csv or fundamentals.csv differs from the served edition's (added, changed or gone). */
function changed(
  file: FileRef | null,
  market: Market,
  base: 'symbols' | 'fundamentals',
  served: EditionMeta,
  changes: Record<string, FileChange>,
): boolean {
  const before =
    [`${market}/${base}.csv`, `${market}/${base}.csv.gz`].find((d) => served.files[d] !== undefined) ?? null;
  if (file === null) return before !== null;
  return before !== file.display || changes[file.display]?.kind !== 'same';
}

/**
 * Reads every market of a folder when nothing is stored yet, recording each file from what the
 * read gave and its stat taken before (a file changed since is read again at the next reload,
 * its stat no longer matching).
 */
async function readFirst(
  files: SnapshotFiles,
  options: StoreOptions,
  pool: Workers,
): Promise<{ parsed: ParsedMarket[]; records: Record<string, FileRecord> }> {
  const stats = new Map<string, { mtimeMs: number; ino: number }>();
  for (const f of allFiles(files)) {
    const info = await stat(f.path);
    stats.set(f.display, { mtimeMs: info.mtimeMs, ino: info.ino });
  }
  await options.onPlan?.(files.markets.flatMap((m) => m.klines));
  const reads: FileRead[] = [];
  const parsed = await readMarkets(files.markets, { run: (task) => pool.run(task) as Promise<never> }, reads);
  const records: Record<string, FileRecord> = {};
  for (const read of reads) records[read.display] = recordOf(read, stats.get(read.display)!);
  // The manifest and macro.csv are small: recorded apart (the macro is read again, checked, below).
  for (const f of [files.manifest, files.macro]) {
    if (f === null) continue;
    const r = await pool.run({ kind: 'record', file: f, known: null });
    if (r.kind !== 'record') throw new Error('expected a file record');
    if (!r.ok) throw new SnapshotError(r.file, r.line, r.reason);
    records[f.display] = r.record;
  }
  return { parsed, records };
}

const recordOf = (read: FileRead, info: { mtimeMs: number; ino: number }): FileRecord => ({
  hash: read.hash,
  blocks: read.blocks,
  size: read.blocks.size,
  mtimeMs: info.mtimeMs,
  ino: info.ino,
  lines: read.lines,
  rows: read.rows,
  endsWithNewline: read.endsWithNewline,
});

/** The rows of a stored part, from its meta (read in a worker: no environment opened here). */
async function partRows(stateDir: string, part: string): Promise<number> {
  const { open } = await import('lmdb');
  const env = open({
    path: `${partDir(stateDir, part)}/data.mdb`,
    encoding: 'msgpack',
    readOnly: true,
    mapSize: PART_MAP_BYTES,
  });
  try {
    return (env.get('meta') as { rows: number }).rows;
  } finally {
    await env.close();
  }
}

const changedWhileRead = (display: string): SnapshotError =>
  new SnapshotError(display, 0, 'the file changed while it was being read; load the folder again once it is complete');

/** `read`'s value, once its identity of the file equals the one recorded before (else the file changed in between). */
async function readChecked<T>(
  f: FileRef,
  records: Record<string, FileRecord>,
  read: (f: FileRef) => Promise<{ value: T; hash: string }>,
): Promise<T> {
  const got = await read(f);
  if (got.hash !== records[f.display].hash) throw changedWhileRead(f.display);
  return got.value;
}
