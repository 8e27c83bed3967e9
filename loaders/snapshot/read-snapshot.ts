// Reads and validates a whole snapshot folder (format: docs/operators.md, "The snapshot folder") into sorted columns.

import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { MARKETS, type Market } from '../../engine/markets.js';
import { type AssembleTask, assembleMarket, type FileRead } from './assemble-market.js';
import { type FileBlocks, identityOf } from './block-hash.js';
import { type ParsedFile, pieceViews, rowsFor } from './kline-join.js';
import {
  countPiece,
  type KlinePiece,
  type PieceResult,
  parsePiece,
  piecesOf,
  readKlineLayout,
} from './kline-pieces.js';
import { loadLimits, type LoadLimits } from './limits.js';
import type { MacroPoint, Manifest, ParsedMarket, ParsedSnapshot } from './parsed-snapshot.js';
import type { FileRef } from './read-csv.js';
import { readMacro } from './read-macro.js';
import { readManifest } from './read-manifest.js';
import type { MarketTask, MarketTaskResult } from './read-market-task.js';
import { DAY_FILES_FOLDER, dayFileNames, probe, strayFolders } from './snapshot-files.js';
import { SnapshotError } from './snapshot-error.js';
import { type TaskPool, taskPool } from './task-pool.js';

/** Told every so often how many more K-line rows were read. */
export type LoadProgress = (rows: number) => void;

export interface ReadOptions {
  onRows?: LoadProgress;
  /** Worker threads reading markets side by side (default: cores, at most 6; 0 = this thread). */
  threads?: number;
  /** Bounds on line length and gzip expansion (defaults: DEFAULT_LOAD_LIMITS). */
  limits?: Partial<LoadLimits>;
}

/** A market's files: its K-lines (klines.csv first, then its day files by name), symbols and fundamentals. */
export interface MarketFiles {
  market: Market;
  klines: FileRef[];
  symbols: FileRef | null;
  fundamentals: FileRef | null;
}

/** The files of a snapshot folder the format names, found and checked (not read yet). */
export interface SnapshotFiles {
  manifest: FileRef | null;
  macro: FileRef | null;
  markets: MarketFiles[];
}

/**
 * Finds the files of `folder`: a folder that is not a market, a market that is not a folder,
 * a market without K-lines (neither klines.csv nor a day file), a file given both as `.csv` and
 * `.csv.gz`, or an entry of a day-file folder that is not one rejects the snapshot.
 */
export async function listSnapshotFiles(folder: string, limits: LoadLimits = loadLimits()): Promise<SnapshotFiles> {
  let stray: string[];
  try {
    stray = await strayFolders(folder);
  } catch (error) {
    throw new SnapshotError(
      folder,
      0,
      `cannot read folder: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  if (stray.length > 0)
    throw new SnapshotError(`${stray[0]}/`, 0, `unknown market folder (expected one of ${MARKETS.join(', ')})`);
  const markets: SnapshotFiles['markets'] = [];
  for (const market of MARKETS) {
    const info = await probe(join(folder, market), `${market}/`);
    if (info === null) continue;
    if (!info.isDirectory()) throw new SnapshotError(`${market}/`, 0, 'not a folder');
    const whole = await pickCsv(folder, `${market}/`, 'klines', limits);
    const days = (await dayFileNames(folder, market)) ?? [];
    const klines = [
      ...(whole === null ? [] : [whole]),
      ...days.map((name) => ({
        path: join(folder, market, DAY_FILES_FOLDER, name),
        display: `${market}/${DAY_FILES_FOLDER}/${name}`,
        limits,
      })),
    ];
    if (klines.length === 0)
      throw new SnapshotError(
        `${market}/klines.csv`,
        0,
        `missing: every market folder needs its K-lines (klines.csv, or day files in ${market}/${DAY_FILES_FOLDER}/)`,
      );
    markets.push({
      market,
      klines,
      symbols: await pickCsv(folder, `${market}/`, 'symbols', limits),
      fundamentals: await pickCsv(folder, `${market}/`, 'fundamentals', limits),
    });
  }
  return {
    manifest: await namedFile(folder, 'manifest.json', limits),
    macro: await pickCsv(folder, '', 'macro', limits),
    markets,
  };
}

/** The manifest (empty without manifest.json), with what reading its file gave pushed on `reads`. */
export async function readManifestOf(files: SnapshotFiles, reads: FileRead[]): Promise<Manifest> {
  if (files.manifest === null) return {};
  const read = await readManifest(files.manifest);
  reads.push({
    display: files.manifest.display,
    blocks: read.blocks,
    hash: read.hash,
    lines: null,
    rows: null,
    endsWithNewline: null,
  });
  return read.manifest;
}

/** The macro points (none without macro.csv), with what reading its file gave pushed on `reads`. */
export async function readMacroOf(files: SnapshotFiles, reads: FileRead[]): Promise<MacroPoint[]> {
  if (files.macro === null) return [];
  const read = await readMacro(files.macro);
  reads.push({ display: files.macro.display, ...read.file, lines: null, rows: null, endsWithNewline: null });
  return read.points;
}

/** A file's line in the content hash: its path in the folder and its identity (block-hash.ts). */
export const contentLine = (read: { display: string; hash: string }): string => `${read.display}\t${read.hash}`;

/** sha256 over every file's `path\tidentity` line, sorted: equal hashes mean equal snapshots. */
export const contentHashOf = (hashes: readonly string[]): string =>
  createHash('sha256')
    .update([...hashes].sort().join('\n'))
    .digest('hex');

/**
 * Reads `folder`; the first violation of the format's rules rejects the whole snapshot with a SnapshotError.
 * Only the names the format gives are read (see snapshot-files.ts); other entries are ignored.
 */
export async function readSnapshot(folder: string, options: ReadOptions = {}): Promise<ParsedSnapshot> {
  const limits = loadLimits(options.limits);
  const files = await listSnapshotFiles(folder, limits);
  const reads: FileRead[] = [];
  const manifest = await readManifestOf(files, reads);
  const macro = await readMacroOf(files, reads);
  const markets = await readMarkets(files.markets, options, reads);
  const rows = markets.reduce((sum, m) => sum + m.klines.date.length, 0);
  return { manifest, markets, macro, contentHash: contentHashOf(reads.map(contentLine)), rows };
}

/** How the markets are read: `run` takes a task (on a pool worker, or here). */
export type MarketRunner = (task: MarketTask) => Promise<MarketTaskResult>;

/**
 * Reads `markets`: every K-line file in pieces (a plain file cut into PIECE_BYTES ranges at line
 * ends), all parsed side by side on `threads` workers (0: here), then each market assembled
 * (symbols, joined rows, fundamentals, sorted) as soon as its pieces are in. What reading each
 * file gave goes on `reads` (a K-line file's blocks joined from its pieces').
 */
export async function readMarkets(
  markets: MarketFiles[],
  options: ReadOptions & { run?: MarketRunner },
  reads: FileRead[],
): Promise<ParsedMarket[]> {
  if (markets.length === 0) return [];
  const onRows = options.onRows ?? (() => {});
  const threads = Math.min(options.threads ?? availableParallelism(), 8);
  let pool: TaskPool<MarketTask, MarketTaskResult> | null = null;
  let run: MarketRunner;
  if (options.run !== undefined) run = options.run;
  else if (threads > 0) {
    const p = taskPool<MarketTask, MarketTaskResult>(
      new URL('./read-market-task.js', import.meta.url).href,
      threads,
      (message) => onRows((message as { rows?: number }).rows ?? 0),
    );
    pool = p;
    run = (task) => p.run(task);
  } else run = oneAtATime((task: MarketTask) => runMarketTask(task, onRows));
  try {
    const planned = await Promise.all(markets.map(planPieces));
    // Largest pieces first, so the last to finish is a small one.
    const all = planned.flatMap((files) => files.flatMap((f) => f.pieces.map((piece) => ({ piece, size: f.size }))));
    all.sort((a, b) => pieceWeight(b.piece, b.size) - pieceWeight(a.piece, a.size));
    // Each piece's rows counted first: each market's columns are made once, at their size, and each piece parses into its part of them.
    const counts = new Map<KlinePiece, Promise<number>>();
    for (const { piece } of all) counts.set(piece, run({ kind: 'count', piece }).then(countOf));
    const assembled = await Promise.all(
      markets.map(async (m, i) => {
        const files = await Promise.all(
          planned[i].map(async (f) => ({ ...f, counts: await Promise.all(f.pieces.map((p) => counts.get(p)!)) })),
        );
        const rows = rowsFor(files);
        const views = pieceViews(files, rows);
        let v = 0;
        const klines: ParsedFile[] = await Promise.all(
          files.map(async (f) => ({
            file: f.file,
            pieces: f.pieces,
            counts: f.counts,
            results: await Promise.all(
              f.pieces.map((piece) => run({ kind: 'piece', piece, into: views[v++] }).then(resultOf)),
            ),
          })),
        );
        const task: AssembleTask = { market: m.market, symbols: m.symbols, fundamentals: m.fundamentals, klines, rows };
        return { klines, result: await run({ kind: 'assemble', task }) };
      }),
    );
    const parsed: ParsedMarket[] = [];
    for (const { klines, result } of assembled) {
      if (result.kind !== 'assemble') throw new Error('expected an assembled market');
      if (!result.ok) throw new SnapshotError(result.file, result.line, result.reason);
      for (const f of klines) reads.push(klineRead(f));
      reads.push(...result.reads);
      parsed.push(result.parsed);
    }
    return parsed;
  } finally {
    await pool?.close();
  }
}

/**
 * `run` taking one task at a time, in the order given (a store with no worker threads: pieces read
 * one after another, so one piece's buffer is in memory at a time).
 */
export function oneAtATime<T, R>(run: (task: T) => Promise<R>): (task: T) => Promise<R> {
  let last: Promise<unknown> = Promise.resolve();
  return (task) => {
    const next = last.then(
      () => run(task),
      () => run(task),
    );
    last = next;
    return next;
  };
}

/** A piece's count, or the SnapshotError its file gave (unreadable, a broken gzip). */
export const countOf = (r: MarketTaskResult): number => {
  if (r.kind !== 'count') throw new Error('expected a count');
  if (r.rows === null) throw new SnapshotError(r.file, r.line, r.reason);
  return r.rows;
};
export const resultOf = (r: MarketTaskResult): PieceResult => {
  if (r.kind !== 'piece') throw new Error('expected a piece');
  return r.result;
};

/** What reading a K-line file gave, from its pieces' results (all succeeded). */
function klineRead(f: ParsedFile): FileRead {
  const blocks: FileBlocks = { size: 0, sha: [], crc: [] };
  let lines = 0;
  let rows = 0;
  let endsWithNewline = true;
  for (const r of f.results) {
    if (!r.ok) throw new Error('a piece failed after its market was assembled');
    // Pieces start on block boundaries, each hashing its own blocks: the file's are theirs in order.
    blocks.size += r.blocks.size;
    blocks.sha.push(...r.blocks.sha);
    blocks.crc.push(...r.blocks.crc);
    lines += r.lines;
    rows += r.rows;
    endsWithNewline = r.endsWithNewline;
  }
  return { display: f.file.display, blocks, hash: identityOf(blocks), lines, rows, endsWithNewline };
}

/** The pieces of each K-line file of a market (its header read first, for the columns). */
async function planPieces(m: MarketFiles): Promise<{ file: FileRef; size: number; pieces: KlinePiece[] }[]> {
  return Promise.all(
    m.klines.map(async (file) => {
      const { layout, headerBytes } = await readKlineLayout(file);
      const size = (await stat(file.path)).size;
      return { file, size, pieces: piecesOf(file, layout, headerBytes, size) };
    }),
  );
}

/** Scheduling weight of a piece: its bytes (a gzip's counted 4×, as it expands). */
const pieceWeight = (piece: KlinePiece, size: number): number =>
  piece.gzip ? size * 4 : (piece.end ?? size) - piece.start;

/** A task run here (no pool): what read-market-task.ts does on a worker. */
export async function runMarketTask(task: MarketTask, onRows: (rows: number) => void): Promise<MarketTaskResult> {
  if (task.kind === 'count')
    return countPiece(task.piece).then(
      (rows) => ({ kind: 'count', rows }),
      (error: unknown) => {
        if (!(error instanceof SnapshotError)) throw error;
        return { kind: 'count', rows: null, file: error.file, line: error.line, reason: error.reason };
      },
    );
  if (task.kind === 'piece') return { kind: 'piece', result: await parsePiece(task.piece, task.into, onRows) };
  try {
    return { kind: 'assemble', ok: true, ...(await assembleMarket(task.task)) };
  } catch (error) {
    if (error instanceof SnapshotError)
      return { kind: 'assemble', ok: false, file: error.file, line: error.line, reason: error.reason };
    throw error;
  }
}

/** The `.csv` or `.csv.gz` file named `base` under `prefix`, null if neither; both at once is ambiguous. */
async function pickCsv(folder: string, prefix: string, base: string, limits: LoadLimits): Promise<FileRef | null> {
  const plain = await namedFile(folder, `${prefix}${base}.csv`, limits);
  const gz = await namedFile(folder, `${prefix}${base}.csv.gz`, limits);
  if (plain !== null && gz !== null)
    throw new SnapshotError(plain.display, 0, `both ${base}.csv and ${base}.csv.gz are present; keep one`);
  return plain ?? gz;
}

/** The regular file at `display` (a path relative to the folder), or null when absent. */
async function namedFile(folder: string, display: string, limits: LoadLimits): Promise<FileRef | null> {
  const path = join(folder, display);
  const info = await probe(path, display);
  if (info === null) return null;
  if (!info.isFile()) throw new SnapshotError(display, 0, 'not a regular file');
  return { path, display, limits };
}
