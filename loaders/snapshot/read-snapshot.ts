// Reads and validates a whole snapshot folder (decisions §5) into sorted columns.

import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
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

/** Called after each file with its display path and the K-line rows read so far. */
export type LoadProgress = (file: string, klineRows: number) => void;

/** Reads `folder`; the first violation of §5 rejects the whole snapshot with a SnapshotError. */
export async function readSnapshot(folder: string, onFile: LoadProgress = () => {}): Promise<ParsedSnapshot> {
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
  const markets: ParsedMarket[] = [];
  let rows = 0;
  for (const market of MARKETS) {
    if (!marketFolders.has(market)) continue;
    const parsed = await readMarket(folder, market, hashes, (file, n) => onFile(file, rows + n));
    rows += parsed.klines.date.length;
    markets.push(parsed);
  }
  hashes.sort();
  const contentHash = createHash('sha256').update(hashes.join('\n')).digest('hex');
  return { manifest, markets, macro, contentHash, rows };
}

async function readMarket(folder: string, market: Market, hashes: string[], onFile: LoadProgress): Promise<ParsedMarket> {
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
  const rawKlines = await readKlines(klinesPath, `${market}/${klinesFile}`, registry, (await stat(klinesPath)).size);
  hashes.push(`${market}/${klinesFile}\t${rawKlines.file.sha256}`);
  onFile(`${market}/${klinesFile}`, rawKlines.date.length);
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
