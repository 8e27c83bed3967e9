// Reads and validates a whole snapshot folder (format: docs/operators.md, "The snapshot folder") into sorted columns.

import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { MARKETS, type Market } from '../../engine/markets.js';
import { loadLimits, type LoadLimits } from './limits.js';
import type { MacroPoint, Manifest, ParsedMarket, ParsedSnapshot } from './parsed-snapshot.js';
import { emptyFundamentals, readFundamentals, sortFundamentals } from './read-fundamentals.js';
import { readKlines, sortKlines } from './read-klines.js';
import type { FileRef } from './read-csv.js';
import { readMacro } from './read-macro.js';
import { readManifest } from './read-manifest.js';
import { readSymbols, type SymbolLabels } from './read-symbols.js';
import { probe, strayFolders } from './snapshot-files.js';
import { SnapshotError } from './snapshot-error.js';
import { SymbolRegistry } from './symbol-registry.js';
import type { MarketTask, MarketTaskResult } from './read-market-task.js';
import { Piscina } from 'piscina';

/** Told every so often how many more K-line rows were read. */
export type LoadProgress = (rows: number) => void;

export interface ReadOptions {
  onRows?: LoadProgress;
  /** Worker threads reading markets side by side (default: cores, at most 6; 0 = this thread). */
  threads?: number;
  /** Bounds on line length and gzip expansion (defaults: DEFAULT_LOAD_LIMITS). */
  limits?: Partial<LoadLimits>;
}

/** The files of a snapshot folder the format names, found and checked (not read yet). */
export interface SnapshotFiles {
  manifest: FileRef | null;
  macro: FileRef | null;
  markets: { market: Market; klines: FileRef; symbols: FileRef | null; fundamentals: FileRef | null }[];
}

/**
 * Finds the files of `folder`: a folder that is not a market, a market that is not a folder,
 * a market without K-lines or a file given both as `.csv` and `.csv.gz` rejects the snapshot.
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
    const klines = await pickCsv(folder, `${market}/`, 'klines', limits);
    if (klines === null)
      throw new SnapshotError(`${market}/klines.csv`, 0, 'missing: every market folder needs its K-lines');
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

/** The manifest (empty without manifest.json), with its file's `path\tsha256` line pushed on `hashes`. */
export async function readManifestOf(files: SnapshotFiles, hashes: string[]): Promise<Manifest> {
  if (files.manifest === null) return {};
  const read = await readManifest(files.manifest);
  hashes.push(`manifest.json\t${read.sha256}`);
  return read.manifest;
}

/** The macro points (none without macro.csv), with its file's line pushed on `hashes`. */
export async function readMacroOf(files: SnapshotFiles, hashes: string[]): Promise<MacroPoint[]> {
  if (files.macro === null) return [];
  const read = await readMacro(files.macro);
  hashes.push(`${files.macro.display}\t${read.file.sha256}`);
  return read.points;
}

/** sha256 over every file's `path\tsha256` line, sorted: equal hashes mean equal snapshots. */
export const contentHashOf = (hashes: readonly string[]): string =>
  createHash('sha256')
    .update([...hashes].sort().join('\n'))
    .digest('hex');

/**
 * Reads `folder`; the first violation of the format's rules rejects the whole snapshot with a SnapshotError.
 * Only the names the format gives are read (see snapshot-files.ts); other entries are ignored.
 */
export async function readSnapshot(folder: string, options: ReadOptions = {}): Promise<ParsedSnapshot> {
  const onRows = options.onRows ?? (() => {});
  const limits = loadLimits(options.limits);
  const files = await listSnapshotFiles(folder, limits);
  const hashes: string[] = [];
  const manifest = await readManifestOf(files, hashes);
  const macro = await readMacroOf(files, hashes);
  const present = files.markets.map((m) => m.market);
  const threads = Math.min(options.threads ?? availableParallelism(), present.length);
  const markets =
    threads > 0
      ? await readMarketsInWorkers(folder, present, threads, limits, hashes, onRows)
      : await readMarketsHere(folder, present, limits, hashes, onRows);
  const rows = markets.reduce((sum, m) => sum + m.klines.date.length, 0);
  return { manifest, markets, macro, contentHash: contentHashOf(hashes), rows };
}

/**
 * Reads one market folder; `hashes` receives a `path\tsha256` line per file. Runs on the
 * calling thread, or in a pool worker through read-market-task.ts. Columns come out in
 * shared memory.
 */
export async function readMarket(
  folder: string,
  market: Market,
  limits: LoadLimits,
  hashes: string[],
  onRows: LoadProgress,
): Promise<ParsedMarket> {
  const klinesFile = await pickCsv(folder, `${market}/`, 'klines', limits);
  if (klinesFile === null)
    throw new SnapshotError(`${market}/klines.csv`, 0, 'missing: every market folder needs its K-lines');
  const symbolsFile = await pickCsv(folder, `${market}/`, 'symbols', limits);
  const fundamentalsFile = await pickCsv(folder, `${market}/`, 'fundamentals', limits);
  const registry = new SymbolRegistry();
  let labels: SymbolLabels | null = null;
  if (symbolsFile !== null) {
    labels = await readSymbols(symbolsFile, registry);
    hashes.push(`${symbolsFile.display}\t${labels.file.sha256}`);
  }
  const rawKlines = await readKlines(klinesFile, registry, onRows);
  hashes.push(`${klinesFile.display}\t${rawKlines.file.sha256}`);
  const rawFundamentals = fundamentalsFile === null ? null : await readFundamentals(fundamentalsFile, registry);
  if (rawFundamentals !== null) hashes.push(`${fundamentalsFile!.display}\t${rawFundamentals.file.sha256}`);

  const rank = registry.ranks();
  const symbols = reorder(registry.symbols, rank);
  const klines = await sortKlines(rawKlines, rank, registry.symbols, klinesFile);
  const fundamentals =
    rawFundamentals === null
      ? emptyFundamentals(symbols.length)
      : await sortFundamentals(rawFundamentals, rank, registry.symbols, fundamentalsFile!);
  const byRank = <T>(values: (T | null)[] | undefined): (T | null)[] =>
    reorder(
      registry.symbols.map((_, id) => values?.[id] ?? null),
      rank,
    );
  return {
    market,
    symbols,
    names: byRank(labels?.names),
    marketNames: byRank(labels?.marketNames),
    marketTypes: byRank(labels?.marketTypes),
    klines,
    fundamentals,
  };
}

async function readMarketsHere(
  folder: string,
  markets: Market[],
  limits: LoadLimits,
  hashes: string[],
  onRows: LoadProgress,
): Promise<ParsedMarket[]> {
  const out: ParsedMarket[] = [];
  for (const market of markets) out.push(await readMarket(folder, market, limits, hashes, onRows));
  return out;
}

/** Reads markets on a pool of worker threads, largest K-line file first, and keeps market order. */
export async function readMarketsInWorkers(
  folder: string,
  markets: Market[],
  threads: number,
  limits: LoadLimits,
  hashes: string[],
  onRows: LoadProgress,
): Promise<ParsedMarket[]> {
  const pool = new Piscina<MarketTask, MarketTaskResult>({
    filename: new URL('./read-market-task.js', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
  });
  pool.on('message', (message: { rows?: number }) => onRows(message.rows ?? 0));
  try {
    const sizes = new Map(
      await Promise.all(markets.map(async (m) => [m, await klinesBytes(join(folder, m))] as const)),
    );
    const bySize = [...markets].sort((a, b) => sizes.get(b)! - sizes.get(a)!);
    const results = new Map(
      await Promise.all(bySize.map(async (market) => [market, await pool.run({ folder, market, limits })] as const)),
    );
    return markets.map((market) => {
      const result = results.get(market)!;
      if (!result.ok) throw new SnapshotError(result.file, result.line, result.reason);
      hashes.push(...result.hashes);
      return result.parsed;
    });
  } finally {
    await pool.destroy();
  }
}

/** The K-line file's size, for scheduling only (a gzip counted 4×); 0 when it cannot be seen. */
async function klinesBytes(dir: string): Promise<number> {
  for (const name of ['klines.csv', 'klines.csv.gz']) {
    const info = await probe(join(dir, name), name).catch(() => null);
    if (info !== null) return info.size * (name.endsWith('.gz') ? 4 : 1);
  }
  return 0;
}

/** `values` (indexed by symbol id) rearranged so that index = rank. */
function reorder<T>(values: readonly T[], rank: Int32Array): T[] {
  const out = new Array<T>(values.length);
  values.forEach((value, id) => (out[rank[id]] = value));
  return out;
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
