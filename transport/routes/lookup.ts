// Market, symbol and limit lookups shared by the routes; each failure is its catalogue problem (problem.ts).

import type { Dataset, MarketData, SnapshotView } from '../../engine/dataset/dataset.js';
import { isMarket } from '../../engine/markets.js';
import type { Plan } from '../../engine/plans.js';
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

/** The position of one symbol, or 404 unknown_symbol. */
export function symbolOf(m: MarketData, text: string): number {
  const i = m.symbols.find(text);
  if (i < 0) throw new Problem('unknown_symbol', `symbol: '${text}' does not exist in ${m.market}`, 'symbol');
  return i;
}

export interface BatchSymbols {
  /** Positions of the symbols that exist, in request order. */
  found: number[];
  /** Requested codes that exist nowhere, as given. */
  missing: string[];
}

/**
 * Checks a batch against the plan's batch size (400 batch_too_large), then looks the
 * symbols up. Call `requireSome` after the other parameters are checked: 404 comes last.
 */
export function batchOf(
  m: Pick<SnapshotView, 'market' | 'symbols'>,
  symbols: readonly string[],
  plan: Plan,
): BatchSymbols {
  checkBatchSize(symbols, plan);
  const found: number[] = [];
  const missing: string[] = [];
  const seen = new Set<number>();
  for (const text of symbols) {
    const i = m.symbols.find(text);
    if (i < 0) missing.push(text);
    else if (!seen.has(i)) seen.add(i), found.push(i); // `SH600000,sh600000` is one symbol
  }
  return { found, missing };
}

/** More symbols than the plan's batch size is 400 batch_too_large. */
export function checkBatchSize(symbols: readonly string[], plan: Plan): void {
  if (symbols.length > plan.batch)
    throw new Problem(
      'batch_too_large',
      `symbols: ${symbols.length} symbols, the ${plan.name} plan allows ${plan.batch} per request`,
      'symbols',
    );
}

export function requireSome(batch: BatchSymbols, m: Pick<SnapshotView, 'market'>): void {
  if (batch.found.length === 0)
    throw new Problem(
      'unknown_symbol',
      `symbols: none of ${batch.missing.join(', ')} exists in ${m.market}`,
      'symbols',
    );
}

/** `limit` clamped to `max` (the response shows the value used). */
export const clamp = (limit: number, max: number): number => Math.min(limit, max);

/** `start` after `end` is a 400 naming `start`. */
export function checkRange(start: number | null, end: number | null, name = 'start'): void {
  if (start !== null && end !== null && start > end) throw badParam(name, `${name} is after end`);
}
