// GET /{market}/symbols: list or search a market's symbols (decisions §4 ranking).

import type { SymbolIndex } from '../dataset/symbol-index.js';

export interface SymbolPage {
  total: number;
  /** Symbol positions of the page, in answer order. */
  indices: number[];
}

/**
 * Without `search`: every symbol by code. With it, case-insensitive matches ranked exact
 * code, code prefix, code substring, name substring; ties by code (position order).
 */
export function searchSymbols(symbols: SymbolIndex, search: string | null, offset: number, limit: number): SymbolPage {
  if (search === null) {
    const end = Math.min(symbols.size, offset + limit);
    const indices: number[] = [];
    for (let i = offset; i < end; i++) indices.push(i);
    return { total: symbols.size, indices };
  }
  const all = rankedMatches(symbols, search.toLowerCase());
  return { total: all.length, indices: all.slice(offset, offset + limit) };
}

const memo = new WeakMap<SymbolIndex, Map<string, number[]>>();

/**
 * Every match of `needle` in answer order, remembered per symbol index: a Dataset never
 * changes and search terms repeat (type-ahead), while a scan costs ~150 µs on 3,000 names.
 */
function rankedMatches(symbols: SymbolIndex, needle: string): number[] {
  let known = memo.get(symbols);
  if (known === undefined) memo.set(symbols, (known = new Map()));
  const hit = known.get(needle);
  if (hit !== undefined) return hit;
  const ranks: number[][] = [[], [], [], []];
  for (let i = 0; i < symbols.size; i++) {
    const code = symbols.lowerCodes[i];
    if (code === needle) ranks[0].push(i);
    else if (code.startsWith(needle)) ranks[1].push(i);
    else if (code.includes(needle)) ranks[2].push(i);
    else if (symbols.lowerNames[i].includes(needle)) ranks[3].push(i);
  }
  const all = ranks.flat();
  if (known.size >= 10_000) known.clear(); // bounded: terms come from clients
  known.set(needle, all);
  return all;
}
