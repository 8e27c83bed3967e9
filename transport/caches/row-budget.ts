// KLINE_TEXT_CACHE_MB: the one budget of a serving thread's two rendered-row caches, split once at start.

import { setKlineTextBudget } from './kline-text.js';
import { setSnapshotTextBudget } from './snapshot-text.js';

/** Share of the budget kept for snapshot rows (detail, screens: ~6,000 symbols, a few column sets); K-line rows get the rest. */
export const SNAPSHOT_ROWS_SHARE = 0.25;

/** Sets the budgets of the rendered-row caches made from now on (never read at import). */
export function setRenderedRowBudget(bytes: number): void {
  const snapshotRows = Math.floor(bytes * SNAPSHOT_ROWS_SHARE);
  setSnapshotTextBudget(snapshotRows);
  setKlineTextBudget(bytes - snapshotRows);
}
