// Reads and validates a whole snapshot folder (decisions §5) into sorted columns.

import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { isMarket, MARKETS, type Market } from '../../engine/markets.js';
import type { MacroPoint, Manifest, ParsedMarket, ParsedSnapshot } from './parsed-snapshot.js';
import { emptyFundamentals, readFundamentals, sortFundamentals } from './read-fundamentals.js';
import { readKlines, sortKlines } from './read-klines.js';
import { readMacro } from './read-macro.js';
import { readManifest } from './read-manifest.js';
import { readSymbols, type SymbolLabels } from './read-symbols.js';
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
}

/** Reads `folder`; the first violation of §5 rejects the whole snapshot with a SnapshotError. */
export async function readSnapshot(folder: string, options: ReadOptions = {}): Promise<ParsedSnapshot> {
  const onRows = options.onRows ?? (() => {});
  const entries = await listFolder(folder, folder);
  const hashes: string[] = [];
  let manifest: Manifest = {};
  let macro: MacroPoint[] = [];
  const marketFolders = new Set<Market>();
  for (const [name, isDirectory] of entries) {
    if (isDirectory) {
      if (!isMarket(name)) throw new SnapshotError(`${name}/`, 0, `unknown market folder (expected one of ${MARKETS.join(', ')})`);
      marketFolders.add(name);
    }
  }
  if (entries.has('manifest.json')) {
    const read = await readManifest(join(folder, 'manifest.json'), 'manifest.json');
    manifest = read.manifest;
    hashes.push(`manifest.json\t${read.sha256}`);
  }
  const macroFile = pick(entries, '', 'macro');
  if (macroFile !== null) {
    const read = await readMacro(join(folder, macroFile), macroFile);
    macro = read.points;
    hashes.push(`${macroFile}\t${read.file.sha256}`);
  }
  const present = MARKETS.filter((m) => marketFolders.has(m));
  const threads = Math.min(options.threads ?? availableParallelism(), present.length);
  const markets =
    threads > 0
      ? await readMarketsInWorkers(folder, present, threads, hashes, onRows)
      : await readMarketsHere(folder, present, hashes, onRows);
  const rows = markets.reduce((sum, m) => sum + m.klines.date.length, 0);
  hashes.sort();
  const contentHash = createHash('sha256').update(hashes.join('\n')).digest('hex');
  return { manifest, markets, macro, contentHash, rows };
}

/**
 * Reads one market folder; `hashes` receives a `path\tsha256` line per file. Runs on the
 * calling thread, or in a pool worker through read-market-task.ts.
 */
export async function readMarket(folder: string, market: Market, hashes: string[], onRows: LoadProgress): Promise<ParsedMarket> {
  const dir = join(folder, market);
  const files = await listFolder(dir, `${market}/`);
  const klinesFile = pick(files, `${market}/`, 'klines');
  if (klinesFile === null) throw new SnapshotError(`${market}/klines.csv`, 0, 'missing: every market folder needs its K-lines');
  const symbolsFile = pick(files, `${market}/`, 'symbols');
  const fundamentalsFile = pick(files, `${market}/`, 'fundamentals');
  const registry = new SymbolRegistry();
  let labels: SymbolLabels | null = null;
  if (symbolsFile !== null) {
    labels = await readSymbols(join(dir, symbolsFile), `${market}/${symbolsFile}`, registry);
    hashes.push(`${market}/${symbolsFile}\t${labels.file.sha256}`);
  }
  const klinesPath = join(dir, klinesFile);
  const rawKlines = await readKlines(klinesPath, `${market}/${klinesFile}`, registry, (await stat(klinesPath)).size, onRows);
  hashes.push(`${market}/${klinesFile}\t${rawKlines.file.sha256}`);
  const rawFundamentals = fundamentalsFile === null ? null : await readFundamentals(join(dir, fundamentalsFile), `${market}/${fundamentalsFile}`, registry);
  if (rawFundamentals !== null) hashes.push(`${market}/${fundamentalsFile}\t${rawFundamentals.file.sha256}`);

  const rank = registry.ranks();
  const symbols = reorder(registry.symbols, rank);
  const klines = await sortKlines(rawKlines, rank, registry.symbols, klinesPath, `${market}/${klinesFile}`);
  const fundamentals =
    rawFundamentals === null
      ? emptyFundamentals(symbols.length)
      : await sortFundamentals(rawFundamentals, rank, registry.symbols, join(dir, fundamentalsFile!), `${market}/${fundamentalsFile}`);
  const byRank = <T>(values: (T | null)[] | undefined): (T | null)[] => reorder(registry.symbols.map((_, id) => values?.[id] ?? null), rank);
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

async function readMarketsHere(folder: string, markets: Market[], hashes: string[], onRows: LoadProgress): Promise<ParsedMarket[]> {
  const out: ParsedMarket[] = [];
  for (const market of markets) out.push(await readMarket(folder, market, hashes, onRows));
  return out;
}

/** Reads markets on a pool of worker threads, largest K-line file first, and keeps market order. */
async function readMarketsInWorkers(folder: string, markets: Market[], threads: number, hashes: string[], onRows: LoadProgress): Promise<ParsedMarket[]> {
  const pool = new Piscina<MarketTask, MarketTaskResult>({
    filename: new URL('./read-market-task.js', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
  });
  pool.on('message', (message: { rows?: number }) => onRows(message.rows ?? 0));
  try {
    const sizes = new Map(await Promise.all(markets.map(async (m) => [m, await klinesBytes(join(folder, m))] as const)));
    const bySize = [...markets].sort((a, b) => sizes.get(b)! - sizes.get(a)!);
    const results = new Map(await Promise.all(bySize.map(async (market) => [market, await pool.run({ folder, market })] as const)));
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

async function klinesBytes(dir: string): Promise<number> {
  for (const name of ['klines.csv', 'klines.csv.gz']) {
    try {
      return (await stat(join(dir, name))).size * (name.endsWith('.gz') ? 4 : 1);
    } catch {
      // try the other spelling
    }
  }
  return 0;
}

/** `values` (indexed by symbol id) rearranged so that index = rank. */
function reorder<T>(values: readonly T[], rank: Int32Array): T[] {
  const out = new Array<T>(values.length);
  values.forEach((value, id) => (out[rank[id]] = value));
  return out;
}

/** Entry name → is a folder (symlinks followed). */
async function listFolder(path: string, display: string): Promise<Map<string, boolean>> {
  let names: string[];
  try {
    names = await readdir(path);
  } catch (error) {
    throw new SnapshotError(display, 0, `cannot read folder: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const out = new Map<string, boolean>();
  for (const name of names) {
    if (name.startsWith('.')) continue; // editor and OS droppings
    out.set(name, (await stat(join(path, name))).isDirectory());
  }
  return out;
}

/** The `.csv` or `.csv.gz` file named `base`, null if neither; both at once is ambiguous. */
function pick(files: Map<string, boolean>, prefix: string, base: string): string | null {
  const plain = files.get(`${base}.csv`) === false;
  const gz = files.get(`${base}.csv.gz`) === false;
  if (plain && gz) throw new SnapshotError(`${prefix}${base}.csv`, 0, `both ${base}.csv and ${base}.csv.gz are present; keep one`);
  return plain ? `${base}.csv` : gz ? `${base}.csv.gz` : null;
}
