// K-line rows into a market's sorted columns: grouped by symbol and date, a repeat refused, adjusted prices bounded.

import { formatDate } from '../../engine/calendar/days.js';
import { adjustmentOutOfBounds, MAX_ADJUSTED_PRICE } from '../../engine/kernels/adjust.js';
import { KLINE_VALUE_COLUMNS, type KlineColumns } from '../../engine/dataset/kline-columns.js';
import { permute, permuteScratch } from './group-rows.js';
import type { RowLocator } from './kline-join.js';
import { SnapshotError } from './snapshot-error.js';
import { sortBySymbol } from './sort-by-symbol.js';

/** The columns qfq / hfq rescale (volume and amount never are). */
const ADJUSTED = ['open', 'high', 'low', 'close'] as const;

/** K-line rows in the order read, with the symbol id of each row. */
export interface RawKlines {
  symbolIds: Int32Array;
  columns: Omit<KlineColumns, 'offsets'>;
}

/**
 * Sorts raw rows into the market's symbol order, in place. A duplicate (symbol, date), or
 * a price whose hfq value, or qfq value to any of its symbol's factors (the latest, or any
 * day's through qfq_base and as_of), would leave ±MAX_ADJUSTED_PRICE, rejects the file.
 */
export async function sortKlines(
  raw: Pick<RawKlines, 'symbolIds' | 'columns'>,
  rank: Int32Array,
  symbols: readonly string[],
  locate: RowLocator,
): Promise<KlineColumns> {
  const grouped = await sortBySymbol(raw.symbolIds, raw.columns.date, rank, symbols, locate);
  const scratch = grouped.order === null ? null : permuteScratch(raw.symbolIds.length);
  if (scratch !== null) {
    permute(raw.columns.date, grouped.order, scratch);
    for (const name of KLINE_VALUE_COLUMNS) permute(raw.columns[name], grouped.order, scratch);
  }
  const block: KlineColumns = { offsets: grouped.offsets, ...raw.columns };
  const outOfBounds = firstOutOfBounds(block);
  if (outOfBounds !== null) {
    const row = grouped.order === null ? outOfBounds.position : grouped.order[outOfBounds.position];
    const at = await locate(row);
    throw new SnapshotError(at.display, at.line, outOfBounds.reason);
  }
  return block;
}

/**
 * A sorted position whose adjusted price leaves the bound (the first by field, then position):
 * among every row (a market read whole), or, given `whole` and `rows`, among every row of the
 * symbols `whole` marks and the rows `rows` lists (ascending) of the others (a merge: the new rows,
 * and the whole history of a symbol whose latest or smallest factor they moved).
 */
export function firstOutOfBounds(
  k: KlineColumns,
  whole: Uint8Array | null = null,
  rows: Int32Array | null = null,
): { position: number; reason: string } | null {
  const smallest = smallestFactorRows(k);
  for (const name of ADJUSTED) {
    const prices = k[name];
    let next = 0; // the next of `rows` to look at
    for (let s = 0; s + 1 < k.offsets.length; s++) {
      const latest = k.offsets[s + 1] - 1;
      const min = smallest[s];
      const all = whole === null || whole[s] === 1;
      if (rows !== null) while (next < rows.length && rows[next] < k.offsets[s]) next++;
      for (let row = k.offsets[s]; row <= latest; row++) {
        if (!all) {
          // only the listed rows of this symbol
          if (rows === null || next >= rows.length || rows[next] > latest) break;
          row = rows[next++];
        }
        const mode = adjustmentOutOfBounds(prices[row], k.adj_factor[row], k.adj_factor[latest], k.adj_factor[min]);
        if (mode === null) continue;
        const factor =
          mode === 'hfq'
            ? `${k.adj_factor[row]}`
            : `${k.adj_factor[row]} / ${k.adj_factor[mode === 'qfq' ? latest : min]}`;
        const how =
          mode === 'qfq_base'
            ? `qfq to ${formatDate(k.date[min])}, the day of the smallest adj_factor, as qfq_base or as_of may ask`
            : mode;
        return {
          position: row,
          reason: `${name}: ${prices[row]} × adj_factor ${factor} (${how}) is beyond ±${MAX_ADJUSTED_PRICE.toExponential()}`,
        };
      }
    }
  }
  return null;
}

/** Per symbol, the row of its smallest adj_factor (the first of equal ones). */
export function smallestFactorRows(k: KlineColumns): Int32Array {
  const rows = new Int32Array(Math.max(0, k.offsets.length - 1));
  for (let s = 0; s < rows.length; s++) {
    let min = k.offsets[s];
    for (let row = min + 1; row < k.offsets[s + 1]; row++) if (k.adj_factor[row] < k.adj_factor[min]) min = row;
    rows[s] = min;
  }
  return rows;
}
