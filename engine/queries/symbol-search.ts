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
  const needle = search.toLowerCase();
  const ranks: number[][] = [[], [], [], []];
  for (let i = 0; i < symbols.size; i++) {
    const code = symbols.lowerCodes[i];
    if (code === needle) ranks[0].push(i);
    else if (code.startsWith(needle)) ranks[1].push(i);
    else if (code.includes(needle)) ranks[2].push(i);
    else if (symbols.lowerNames[i].includes(needle)) ranks[3].push(i);
  }
  const all = ranks.flat();
  return { total: all.length, indices: all.slice(offset, offset + limit) };
}
