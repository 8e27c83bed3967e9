// One market put together from what was read of it: symbols.csv, the K-line files' pieces,
// fundamentals.csv, sorted into the market's (symbol, date) order.

import type { Market } from '../../engine/markets.js';
import type { FileBlocks } from './block-hash.js';
import { joinPieces, type ParsedFile, spanLocator } from './kline-join.js';
import type { KlineRows } from './kline-lines.js';
import type { ParsedMarket } from './parsed-snapshot.js';
import { emptyFundamentals, readFundamentals, sortFundamentals } from './read-fundamentals.js';
import { sortKlines } from './read-klines.js';
import type { FileRef } from './read-csv.js';
import { readSymbols, type SymbolLabels } from './read-symbols.js';
import { SymbolRegistry } from './symbol-registry.js';

/** A file as it was read: its bytes block by block, their identity and, for a K-line file, its lines (a later tail is numbered on from them). */
export interface FileRead {
  display: string;
  blocks: FileBlocks;
  hash: string;
  /** K-line files: physical lines (the header's included), data rows, and whether the last line ended with a line break. */
  lines: number | null;
  rows: number | null;
  endsWithNewline: boolean | null;
}

export interface AssembleTask {
  market: Market;
  symbols: FileRef | null;
  fundamentals: FileRef | null;
  /** The K-line files in order, each with its pieces and what they gave, and the columns they wrote into. */
  klines: ParsedFile[];
  rows: KlineRows;
}

/**
 * The market: its symbols registered from symbols.csv first, then the K-line files in order,
 * then fundamentals.csv (so a symbol clashing by case is reported where a reader meets it
 * second); rows sorted by (symbol, date), a duplicate rejected with both its places.
 */
export async function assembleMarket(task: AssembleTask): Promise<{ parsed: ParsedMarket; reads: FileRead[] }> {
  const registry = new SymbolRegistry();
  const reads: FileRead[] = [];
  let labels: SymbolLabels | null = null;
  if (task.symbols !== null) {
    labels = await readSymbols(task.symbols, registry);
    reads.push({ display: task.symbols.display, ...labels.file, lines: null, rows: null, endsWithNewline: null });
  }
  const joined = await joinPieces(task.klines, task.rows, registry);
  const rawFundamentals = task.fundamentals === null ? null : await readFundamentals(task.fundamentals, registry);
  if (rawFundamentals !== null)
    reads.push({
      display: task.fundamentals!.display,
      ...rawFundamentals.file,
      lines: null,
      rows: null,
      endsWithNewline: null,
    });
  const rank = registry.ranks();
  const symbols = reorder(registry.symbols, rank);
  const klines = await sortKlines(joined, rank, registry.symbols, spanLocator(joined.spans));
  const fundamentals =
    rawFundamentals === null
      ? emptyFundamentals(symbols.length)
      : await sortFundamentals(rawFundamentals, rank, registry.symbols, task.fundamentals!);
  const byRank = <T>(values: (T | null)[] | undefined): (T | null)[] =>
    reorder(
      registry.symbols.map((_, id) => values?.[id] ?? null),
      rank,
    );
  return {
    parsed: {
      market: task.market,
      symbols,
      names: byRank(labels?.names),
      marketNames: byRank(labels?.marketNames),
      marketTypes: byRank(labels?.marketTypes),
      klines,
      fundamentals,
    },
    reads,
  };
}

/** `values` (indexed by symbol id) rearranged so that index = rank. */
export function reorder<T>(values: readonly T[], rank: Int32Array): T[] {
  const out = new Array<T>(values.length);
  values.forEach((value, id) => (out[rank[id]] = value));
  return out;
}
