// Market, symbol and limit lookups shared by the routes; each failure is its catalogue problem (problem.ts).

import type { Dataset, MarketData, SnapshotView } from '../../engine/dataset/dataset.js';
import type { SymbolIndex } from '../../engine/dataset/symbol-index.js';
import { isMarket } from '../../engine/markets.js';
import { searchSymbols } from '../../engine/queries/symbol-search.js';
import type { Plan } from '../../engine/plans.js';
import type { CommaList } from '../params/comma-list.js';
import { badParam, Problem } from '../problem.js';

/** The market named by the path, or 400 unknown_market. */
export function marketOf(dataset: Dataset, text: string): MarketData {
  if (!isMarket(text))
    throw new Problem(
      'unknown_market',
      `market: unknown market '${text}' (ashare, hkstock, usstock, crypto, indices, etfs)`,
      'market',
    );
  return dataset.markets[text];
}

/** The position of one symbol (by code or alias), or 404 unknown_symbol with suggestions. */
export function symbolOf(m: Pick<SnapshotView, 'market' | 'symbols'>, text: string): number {
  const i = m.symbols.find(text);
  if (i < 0) throw unknownSymbol(m, text, 'symbol', 'does not exist');
  return i;
}

/** At most this many codes in an unknown symbol's `suggestions`. */
const SUGGESTIONS = 3;

/** A code that matched nothing is searched again without its last character, then its last two, keeping at least five. */
const SHORTENED_BY = 2;
const SHORTENED_TO = 5;

/**
 * What `text` may have meant: every symbol an ambiguous alias names, else the symbol search's
 * best matches of the text, else of its letters and digits alone (`60000.SH` → `60000`), else of
 * those cut short by a character or two (a typo in the last digits: `sh600003` → `sh60000`).
 */
export function suggestionsFor(symbols: SymbolIndex, text: string): string[] {
  const named = symbols.matches(text);
  if (named.length > 1) return named.slice(0, SUGGESTIONS).map((i) => symbols.codes[i]);
  const core = text.replace(/\.[A-Za-z]+$/, '').replace(/[^A-Za-z0-9]/g, '');
  const shortened = Array.from({ length: Math.min(SHORTENED_BY, core.length - SHORTENED_TO) }, (_, k) =>
    core.slice(0, -1 - k),
  );
  for (const term of new Set([text, core, ...shortened])) {
    if (term === '') continue;
    const { indices } = searchSymbols(symbols, term, 0, SUGGESTIONS);
    if (indices.length > 0) return indices.map((i) => symbols.codes[i]);
  }
  return [];
}

/** 404 unknown_symbol for `text` (`why`: 'does not exist', or why it is absent as of a day), naming the first suggestion. */
export function unknownSymbol(
  m: Pick<SnapshotView, 'market' | 'symbols'>,
  text: string,
  param: string,
  why: string,
): Problem {
  const named = m.symbols.matches(text).length;
  const suggestions = suggestionsFor(m.symbols, text);
  const more = named > suggestions.length ? ', …' : '';
  const what =
    named > 1 ? `names ${named} symbols in ${m.market} (${suggestions.join(', ')}${more})` : `${why} in ${m.market}`;
  return withSuggestions(`${param}: '${text}' ${what}`, param, suggestions);
}

/** The unknown_symbol problem with `detail`, its suggestions, the first of them named. */
function withSuggestions(detail: string, param: string, suggestions: string[]): Problem {
  const hint = suggestions.length > 0 ? `; did you mean ${suggestions[0]}?` : '';
  return new Problem('unknown_symbol', `${detail}${hint}`, { param, suggestions });
}

export interface BatchSymbols {
  /** Positions of the symbols that exist, in request order. */
  found: number[];
  /** Requested codes that exist nowhere, as given. */
  missing: string[];
}

/** Per symbol position, the number of the batch that found it last: a duplicate is told by a read, not a Set per batch. */
let marks = new Uint32Array(0);
let batchNo = 0;

/**
 * Checks a batch against the plan's batch size (400 batch_too_large), then looks the
 * symbols up. Call `requireSome` after the other parameters are checked: 404 comes last.
 */
export function batchOf(m: Pick<SnapshotView, 'market' | 'symbols'>, symbols: CommaList, plan: Plan): BatchSymbols {
  checkBatchSize(symbols, plan);
  const found: number[] = [];
  const missing: string[] = [];
  if (marks.length < m.symbols.size) marks = new Uint32Array(m.symbols.size);
  if (++batchNo === 2 ** 32) marks.fill(0), (batchNo = 1);
  for (let k = 0; k < symbols.length; k++) {
    const i = m.symbols.findIn(symbols.text, symbols.start(k), symbols.end(k));
    if (i < 0) {
      const text = symbols.item(k);
      if (!missing.includes(text)) missing.push(text);
    } else if (marks[i] !== batchNo) (marks[i] = batchNo), found.push(i); // `SH600000,sh600000` is one symbol
  }
  return { found, missing };
}

/** More symbols than the plan's batch size is 400 batch_too_large. */
export function checkBatchSize(symbols: CommaList, plan: Plan): void {
  const named = symbols.distinctCount(plan.batch);
  if (named > plan.batch)
    throw new Problem(
      'batch_too_large',
      `symbols: ${named} symbols, the ${plan.name} plan allows ${plan.batch} per request`,
      'symbols',
    );
}

/** 404 unknown_symbol when no symbol of the batch exists, suggesting for the first. */
export function requireSome(batch: BatchSymbols, m: Pick<SnapshotView, 'market' | 'symbols'>): void {
  if (batch.found.length > 0) return;
  const suggestions = suggestionsFor(m.symbols, batch.missing[0]);
  throw withSuggestions(`symbols: none of ${batch.missing.join(', ')} exists in ${m.market}`, 'symbols', suggestions);
}

/** `limit` clamped to `max` (the response shows the value used). */
export const clamp = (limit: number, max: number): number => Math.min(limit, max);

/** `start` after `end` is a 400 naming `start`. */
export function checkRange(start: number | null, end: number | null, name = 'start'): void {
  if (start !== null && end !== null && start > end) throw badParam(name, `${name} is after end`);
}
