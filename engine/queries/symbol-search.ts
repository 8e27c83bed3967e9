// GET /{market}/symbols: list or search a market's symbols (ranked: exact code, code prefix, code
// substring, name substring), from the market's search index: a search costs what its matches and
// its page cost, whatever the market's size.

import type { SymbolIndex } from '../dataset/symbol-index.js';

export interface SymbolPage {
  total: number;
  /** Symbol positions of the page, in answer order. */
  indices: number[];
}

/**
 * Without `search`: every symbol by code. With it, case-insensitive matches ranked exact
 * code, code prefix, code substring, name substring; ties by code (position order). A term that
 * names a symbol in a form every route takes (`600000.SH`, `0700.HK`, `AAPL`, `BTC-USDT`) finds
 * that symbol first, as its code would.
 */
export function searchSymbols(symbols: SymbolIndex, search: string | null, offset: number, limit: number): SymbolPage {
  if (search === null) {
    const end = Math.min(symbols.size, offset + limit);
    const indices: number[] = [];
    for (let i = offset; i < end; i++) indices.push(i);
    return { total: symbols.size, indices };
  }
  const { ranks, total } = symbols.search.matches(search.toLowerCase(), search === '' ? -1 : symbols.findOnce(search));
  // The page: [offset, offset + limit) of the ranks laid end to end.
  const indices: number[] = [];
  let skip = offset;
  for (const rank of ranks) {
    if (skip >= rank.length) {
      skip -= rank.length;
      continue;
    }
    for (let k = skip; k < rank.length && indices.length < limit; k++) indices.push(rank[k]);
    skip = 0;
    if (indices.length === limit) break;
  }
  return { total, indices };
}
