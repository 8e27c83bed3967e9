// The rendered-row path shared by the K-line routes: row text from the Dataset's cache.

import { KLINE_FIELDS, type KlineField } from '../../engine/columns.js';
import type { Dataset, MarketData } from '../../engine/dataset/dataset.js';
import type { AdjustMode } from '../../engine/kernels/adjust.js';
import { klineWindow, type WindowQuery } from '../../engine/kernels/kline-window.js';
import type { BodyPart } from '../serialise/assemble.js';
import { klineTextCacheOf } from '../serialise/kline-text.js';

/** Bytes of rendered K-line rows kept per Dataset (KLINE_TEXT_CACHE_MB, default 256). */
const BUDGET_BYTES = Number(process.env.KLINE_TEXT_CACHE_MB ?? 256) * 1024 * 1024;

/** Bit f set when KLINE_FIELDS[f] is selected: names a field set in cache keys. */
export const fieldMask = (fields: readonly KlineField[]): number => fields.reduce((mask, f) => mask | (1 << KLINE_FIELDS.indexOf(f)), 0);

export interface RenderedWindow {
  count: number;
  total: number;
}

/**
 * The window of decisions §4 for symbol `i`: its JSON rows (`{row},{row}…`, ascending) are
 * appended to `pieces` as byte views of the Dataset's rendered-row cache.
 */
export function renderedWindow(dataset: Dataset, m: MarketData, i: number, q: WindowQuery, adj: AdjustMode, fields: readonly KlineField[], pieces: BodyPart[]): RenderedWindow {
  const { from, to, total } = klineWindow(m.klines.date, m.klines.offsets[i], m.klines.offsets[i + 1], q);
  klineTextCacheOf(dataset, BUDGET_BYTES).rows(m, i, adj, fields, fieldMask(fields), from, to, pieces);
  return { count: to - from, total };
}
