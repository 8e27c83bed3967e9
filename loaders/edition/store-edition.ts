// Stores a snapshot folder as an edition, parsing only the markets whose files changed.

import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { readdir, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { open } from 'lmdb';
import type { Market } from '../../engine/markets.js';
import { folderFingerprint } from './fingerprint.js';
import { loadLimits } from '../snapshot/limits.js';
import type { ParsedMarket } from '../snapshot/parsed-snapshot.js';
import type { FileRef } from '../snapshot/read-csv.js';
import { readManifest } from '../snapshot/read-manifest.js';
import {
  contentHashOf,
  listSnapshotFiles,
  readMacroOf,
  readMarketsInWorkers,
  readMarket,
  type ReadOptions,
  type SnapshotFiles,
} from '../snapshot/read-snapshot.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';
import { fileRecord, type FileRecord } from './file-hashes.js';
import { type EditionMarket, type EditionMeta, envFile, FORMAT, partDir, type PartMeta, partsDir } from './layout.js';
import {
  endStore,
  markStore,
  partsSound,
  readCurrent,
  readEditionMetaOrNull,
  storedByFingerprint,
  writeEdition,
  writePointer,
} from './stored-editions.js';
import { partUsable, writePart } from './write-part.js';

export interface StoreResult {
  version: string;
  /** True when the folder's content was already stored: nothing was written. */
  unchanged: boolean;
  /** True when the folder was recognised by its fingerprint alone, without reading it. */
  skippedRead: boolean;
  rows: number;
  seconds: number;
  /** Markets parsed and stored now, and markets whose stored part was taken as it was. */
  parsed: Market[];
  reused: Market[];
}

export interface StoreOptions extends ReadOptions {
  /** Told once the markets to parse are known: the K-line files to read (for a progress estimate). */
  onPlan?: (files: FileRef[]) => void | Promise<void>;
  /** Told once every file read is valid and the parsed markets are about to be stored (their rows), then each market's rows as it is stored. */
  onStore?: (totalRows: number) => void;
  onStored?: (rows: number) => void;
  /** Told of each stored part found damaged (set aside, stored again): its file and what is wrong. */
  onSetAside?: (file: string, reason: string) => void;
}

/** A market's part is named by its files' content: equal files, the same part. */
function partName(market: Market, lines: readonly string[]): string {
  return `${market}-${createHash('sha256')
    .update(`${FORMAT}\n${[...lines].sort().join('\n')}`)
    .digest('hex')
    .slice(0, 16)}`;
}

/** The rows of a stored part, from its meta. */
function partRows(stateDir: string, part: string): number {
  const env = open({ path: envFile(partDir(stateDir, part)), encoding: 'msgpack', readOnly: true });
  try {
    return (env.get('meta') as PartMeta).rows;
  } finally {
    void env.close();
  }
}

/**
 * Validates `folder` and stores it as the edition to serve (current.json). A folder unchanged
 * since it was stored (same paths, sizes, mtimes) is not read again; a file unchanged since the
 * served edition read it is not hashed again; a market whose files all hash as a stored part's
 * is not parsed again (the new edition names that part). A folder that fails validation
 * throws a SnapshotError and leaves everything stored as it was.
 */
export async function storeEdition(folder: string, stateDir: string, options: StoreOptions = {}): Promise<StoreResult> {
  try {
    return await store(folder, stateDir, options);
  } finally {
    await endStore(stateDir).catch(() => {}); // the marker a prune respects (markStore below)
  }
}

async function store(folder: string, stateDir: string, options: StoreOptions): Promise<StoreResult> {
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;
  const source = resolve(folder);
  const fingerprint = await folderFingerprint(source);
  const known = await storedByFingerprint(stateDir, source, fingerprint);
  if (known !== null) return { ...known, seconds: seconds() };
  const current = await readCurrent(stateDir);
  const served = current === null ? null : readEditionMetaOrNull(stateDir, current.version);
  const same = (meta: EditionMeta, unchanged: boolean, skippedRead: boolean): StoreResult => ({
    version: meta.version,
    unchanged,
    skippedRead,
    rows: meta.rows,
    seconds: seconds(),
    parsed: [],
    reused: meta.markets.map((m) => m.market),
  });

  const limits = loadLimits(options.limits);
  const files = await listSnapshotFiles(source, limits);
  // With nothing stored yet every market is parsed, and the parse hashes each file as it reads it:
  // one read of each file, not two (a first start's 1 GB). Otherwise the hashes tell what to parse.
  const firstStore = (await readdir(partsDir(stateDir)).catch(() => [] as string[])).length === 0;
  const early = firstStore ? await parseFirst(source, files, limits, options) : null;
  const records = early?.records ?? (await recordFiles(files, served?.source === source ? served.files : {}));
  const lineOf = (f: FileRef): string => `${f.display}\t${records[f.display].sha256}`;
  const every = Object.keys(records).map((display) => `${display}\t${records[display].sha256}`);
  const manifest =
    files.manifest === null
      ? {}
      : await readChecked(files.manifest, records, (f) =>
          readManifest(f).then((r) => ({ value: r.manifest, sha256: r.sha256 })),
        );
  const contentHash = contentHashOf(every);
  const version = `${manifest.id ?? 'snapshot'}.${contentHash.slice(0, 12)}`;
  const plan = files.markets.map((m) => ({
    market: m.market,
    klines: m.klines,
    part: partName(m.market, [m.klines, m.symbols, m.fundamentals].filter((f) => f !== null).map(lineOf)),
  }));
  // From here a prune (the server's, another `npm run load`) keeps the parts and the edition this store will name.
  await markStore(stateDir, { parts: plan.map((p) => p.part), version });
  const stored = readEditionMetaOrNull(stateDir, version);
  if (stored !== null && stored.contentHash === contentHash && partsSound(stateDir, stored)) {
    // The same content from another folder (or touched): the edition now names this folder, so the
    // next switch to it is recognised by its fingerprint alone, and its files by their stat.
    if (stored.fingerprint !== fingerprint || stored.source !== source)
      await writeEdition(stateDir, { ...stored, fingerprint, source, files: records });
    await writePointer(stateDir, { version, source, fingerprint });
    return { ...same(stored, true, false), seconds: seconds() };
  }

  const toParse: typeof plan = [];
  // A part missing or failing its structural check (set aside then) is parsed again.
  for (const p of plan)
    if (early !== null || !(await partUsable(partDir(stateDir, p.part), options.onSetAside))) toParse.push(p);
  if (early === null) await options.onPlan?.(toParse.map((p) => p.klines));
  const parsed =
    early?.parsed ??
    (await parse(
      source,
      toParse.map((p) => p.market),
      limits,
      options,
      records,
    ));
  const macroLines: string[] = [];
  const macro = await readMacroOf(files, macroLines);
  if (files.macro !== null && macroLines[0] !== lineOf(files.macro)) throw changedWhileRead(files.macro);
  // Every file is valid: only now is anything written.
  options.onStore?.(parsed.reduce((sum, m) => sum + m.klines.date.length, 0));
  const rowsOf = new Map<Market, number>();
  for (const m of parsed) {
    rowsOf.set(m.market, (await writePart(m, partDir(stateDir, plan.find((p) => p.market === m.market)!.part))).rows);
    options.onStored?.(rowsOf.get(m.market)!);
  }
  parsed.length = 0; // the columns can go before the next step
  const markets: EditionMarket[] = plan.map((p) => ({
    market: p.market,
    part: p.part,
    rows: rowsOf.get(p.market) ?? partRows(stateDir, p.part),
  }));
  for (const p of plan)
    if (!(await partUsable(partDir(stateDir, p.part))))
      throw new Error(`part ${p.part} went missing while this store ran (deleted by hand?); store the folder again`);
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
  await writeEdition(stateDir, meta);
  await writePointer(stateDir, { version, source, fingerprint });
  const parsedMarkets = toParse.map((p) => p.market);
  return {
    version,
    unchanged: false,
    skippedRead: false,
    rows: meta.rows,
    seconds: seconds(),
    parsed: parsedMarkets,
    reused: plan.map((p) => p.market).filter((m) => !parsedMarkets.includes(m)),
  };
}

/**
 * Parses every market of a folder when nothing is stored yet, recording each file from the hash
 * the parse computed and its stat taken before (a file changed since is hashed again at the next
 * reload, its stat no longer matching).
 */
async function parseFirst(
  folder: string,
  files: SnapshotFiles,
  limits: ReturnType<typeof loadLimits>,
  options: StoreOptions,
): Promise<{ parsed: ParsedMarket[]; records: Record<string, FileRecord> }> {
  const all = [
    files.manifest,
    files.macro,
    ...files.markets.flatMap((m) => [m.klines, m.symbols, m.fundamentals]),
  ].filter((f): f is FileRef => f !== null);
  const stats = new Map<string, Omit<FileRecord, 'sha256'>>();
  for (const f of all) {
    const info = await stat(f.path);
    stats.set(f.display, { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino });
  }
  await options.onPlan?.(files.markets.map((m) => m.klines));
  const lines: string[] = [];
  const parsed = await parse(
    folder,
    files.markets.map((m) => m.market),
    limits,
    options,
    null,
    lines,
  );
  const records: Record<string, FileRecord> = {};
  for (const line of lines) {
    const [display, sha256] = line.split('\t');
    records[display] = { sha256, ...stats.get(display)! };
  }
  // The manifest and macro.csv are small: hashed apart (the macro is read again, checked, below).
  for (const f of [files.manifest, files.macro]) if (f !== null) records[f.display] = await fileRecord(f, undefined);
  return { parsed, records };
}

/** The record of every file of the folder, by its path in it. */
async function recordFiles(
  files: SnapshotFiles,
  known: Record<string, FileRecord>,
): Promise<Record<string, FileRecord>> {
  const all = [
    files.manifest,
    files.macro,
    ...files.markets.flatMap((m) => [m.klines, m.symbols, m.fundamentals]),
  ].filter((f): f is FileRef => f !== null);
  const records: Record<string, FileRecord> = {};
  for (const f of all) records[f.display] = await fileRecord(f, known[f.display]);
  return records;
}

const changedWhileRead = (f: FileRef): SnapshotError =>
  new SnapshotError(
    f.display,
    0,
    'the file changed while it was being read; load the folder again once it is complete',
  );

/** `read`'s value, once its hash of the file equals the one recorded before (else the file changed in between). */
async function readChecked<T>(
  f: FileRef,
  records: Record<string, FileRecord>,
  read: (f: FileRef) => Promise<{ value: T; sha256: string }>,
): Promise<T> {
  const got = await read(f);
  if (got.sha256 !== records[f.display].sha256) throw changedWhileRead(f);
  return got.value;
}

/**
 * Parses `markets` (in worker threads unless `threads` is 0), each file checked against the hash
 * recorded before (`records`; null: none yet, the parse's hashes go to `lines`).
 */
async function parse(
  folder: string,
  markets: Market[],
  limits: ReturnType<typeof loadLimits>,
  options: ReadOptions,
  records: Record<string, FileRecord> | null,
  hashes: string[] = [],
): Promise<ParsedMarket[]> {
  if (markets.length === 0) return [];
  const onRows = options.onRows ?? (() => {});
  const threads = Math.min(options.threads ?? availableParallelism(), markets.length);
  const parsed: ParsedMarket[] = [];
  if (threads > 0) parsed.push(...(await readMarketsInWorkers(folder, markets, threads, limits, hashes, onRows)));
  else for (const market of markets) parsed.push(await readMarket(folder, market, limits, hashes, onRows));
  for (const line of records === null ? [] : hashes) {
    const [display, sha256] = line.split('\t');
    if (records![display]?.sha256 !== sha256) throw changedWhileRead({ display } as FileRef);
  }
  return parsed;
}
