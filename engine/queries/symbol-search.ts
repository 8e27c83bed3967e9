// GET /{market}/symbols: list or search a market's symbols (ranked: exact code, code prefix, code substring, name substring).

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
  return { total: all.length, indices: Array.from(all.subarray(offset, offset + limit)) };
}

/**
 * What the remembered matches of one symbol index may hold, in positions (4 bytes each) and
 * search-term characters together: 256 KiB. Past it that memory starts over. Bounded by
 * bytes, not terms: a one-letter term matches most of a market, and terms come from clients.
 */
export const MEMO_UNITS = 1 << 16;

const memo = new WeakMap<SymbolIndex, { terms: Map<string, Int32Array>; units: number }>();

/** Positions and term characters remembered for `symbols` now (tests read it). */
export const memoUnits = (symbols: SymbolIndex): number => memo.get(symbols)?.units ?? 0;

/**
 * Every match of `needle` in answer order, remembered per symbol index: a Dataset never
 * changes and search terms repeat (type-ahead), while a scan costs ~150 µs on 3,000 names.
 */
function rankedMatches(symbols: SymbolIndex, needle: string): Int32Array {
  let known = memo.get(symbols);
  if (known === undefined) memo.set(symbols, (known = { terms: new Map(), units: 0 }));
  const hit = known.terms.get(needle);
  if (hit !== undefined) return hit;
  const ranks: number[][] = [[], [], [], []];
  const { lowerCodes, lowerNames } = symbols;
  for (let i = 0; i < symbols.size; i++) {
    const code = lowerCodes[i];
    if (code === needle) ranks[0].push(i);
    else if (code.startsWith(needle)) ranks[1].push(i);
    else if (code.includes(needle)) ranks[2].push(i);
    else if (lowerNames[i].includes(needle)) ranks[3].push(i);
  }
  const all = Int32Array.from(ranks.flat());
  const units = all.length + needle.length;
  if (known.units + units > MEMO_UNITS) known.terms.clear(), (known.units = 0);
  if (units <= MEMO_UNITS) known.terms.set(needle, all), (known.units += units);
  return all;
}
