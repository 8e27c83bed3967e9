// A market's new rows merged into the columns its served part already holds, by copying: what a
// full read of the same folder would give, without reading again what was read before.

import { KLINE_VALUE_COLUMNS, type FundamentalColumns, type KlineColumns } from '../../engine/dataset/kline-columns.js';
import type { Market } from '../../engine/markets.js';
import { type FileRead, reorder } from '../snapshot/assemble-market.js';
import { groupRows } from '../snapshot/group-rows.js';
import { joinPieces, type ParsedFile, spanLocator } from '../snapshot/kline-join.js';
import type { KlineRows } from '../snapshot/kline-lines.js';
import type { ParsedMarket } from '../snapshot/parsed-snapshot.js';
import { emptyFundamentals, readFundamentals, sortFundamentals } from '../snapshot/read-fundamentals.js';
import { firstOutOfBounds } from '../snapshot/read-klines.js';
import type { FileRef } from '../snapshot/read-csv.js';
import { readSymbols, type SymbolLabels } from '../snapshot/read-symbols.js';
import { duplicateReason } from '../snapshot/repeated-dates.js';
import { RowError, SnapshotError } from '../snapshot/snapshot-error.js';
import { SymbolRegistry } from '../snapshot/symbol-registry.js';
import { findStoredRow } from './stored-rows.js';
import type { PartMeta } from './layout.js';
import { packLayout, unpackMarket } from './market-pack.js';
import { withPart } from './open-edition.js';
import type { Prepacked } from './write-part.js';
import { tradingDays } from '../../engine/kernels/trading-days.js';

export interface MergeTask {
  market: Market;
  /** The served edition's part of the market: the rows, symbols, labels and fundamentals merged into. */
  partDir: string;
  /** symbols.csv and fundamentals.csv as they are now, and whether each must be read (changed, or needed to know who is listed). */
  symbols: { file: FileRef | null; read: boolean };
  fundamentals: { file: FileRef | null; read: boolean };
  /** The new K-line bytes: tails of grown files and new files, as pieces parsed, and the columns they wrote into. */
  klines: ParsedFile[];
  rows: KlineRows;
  /** Data rows each K-line file (by display) had when the part was stored: a tail's rows follow them. */
  rowsBefore: Record<string, number>;
  /** The market's K-line files in order (old and new): where a stored row is looked for, and the order of places. */
  files: FileRef[];
}

/**
 * The market as a full read of its files would give it (its pack in memory `packInto` gives, zeros): the stored rows and the new ones in
 * (symbol, date) order, labels and fundamentals as the files say. The checks a full read makes
 * on the new rows (and, for a symbol they touch, on its whole history: a new factor moves every
 * qfq price) are made; a (symbol, date) both stored and new, or new twice, is refused with both
 * places. `appendedOnly`: every new row is dated after the market's last stored day (the stored
 * K-lines are held as they were, and the new rows are the days an edition adds).
 */
export function mergeMarket(
  task: MergeTask,
  packInto: (size: number) => Buffer = (size) => Buffer.alloc(size),
): Promise<{ parsed: MergedMarket; reads: FileRead[]; appendedOnly: boolean }> {
  return withPart(task.partDir, (meta, old) =>
    merge(task, meta, old.klines, old.fundamentals, old.tradingDays ?? storedDays(old.klines), packInto),
  );
}

/** A merged market: its columns written into its pack (`packLayout`), the rest to be filled in when the part is written. */
export type MergedMarket = ParsedMarket & { pack: Prepacked };

async function merge(
  task: MergeTask,
  meta: PartMeta,
  old: KlineColumns,
  oldFundamentals: FundamentalColumns,
  oldDays: Int32Array,
  packInto: (size: number) => Buffer,
): Promise<{ parsed: MergedMarket; reads: FileRead[]; appendedOnly: boolean }> {
  const reads: FileRead[] = [];
  const registry = new SymbolRegistry();
  const oldRank = new Map(meta.symbols.map((s, i) => [s, i]));
  const stored = (s: number): boolean => old.offsets[s + 1] > old.offsets[s];
  // Registered in the order a full read meets them: symbols.csv, the K-line rows (stored first), fundamentals.
  let labels: SymbolLabels | null = null;
  if (task.symbols.read && task.symbols.file !== null) {
    labels = await readSymbols(task.symbols.file, registry);
    reads.push({ display: task.symbols.file.display, ...labels.file, lines: null, rows: null, endsWithNewline: null });
  }
  for (let s = 0; s < meta.symbols.length; s++) {
    // Unread files unchanged: every stored symbol is still named by one of them.
    if (!stored(s) && (task.symbols.read || task.fundamentals.read)) continue;
    try {
      registry.idOf(meta.symbols[s]);
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      const at = await findStoredRow(task.files, meta.symbols[s], null);
      throw new SnapshotError(at.display, at.line, error.reason);
    }
  }
  const joined = await joinPieces(task.klines, task.rows, registry, (file) => task.rowsBefore[file.display] ?? 0);
  const raw =
    task.fundamentals.read && task.fundamentals.file !== null
      ? await readFundamentals(task.fundamentals.file, registry)
      : null;
  if (raw !== null)
    reads.push({
      display: task.fundamentals.file!.display,
      ...raw.file,
      lines: null,
      rows: null,
      endsWithNewline: null,
    });
  if (!task.fundamentals.read && task.fundamentals.file !== null)
    for (let s = 0; s < meta.symbols.length; s++)
      if (oldFundamentals.offsets[s + 1] > oldFundamentals.offsets[s]) registry.idOf(meta.symbols[s]);

  const rank = registry.ranks();
  const symbols = reorder(registry.symbols, rank);
  const locateNew = spanLocator(joined.spans);
  // The new rows grouped by (symbol, date); two alike among them are refused with both places.
  const grouped = groupRows(joined.symbolIds, joined.columns.date, rank);
  if (grouped.duplicate !== null) {
    const { row, first } = grouped.duplicate;
    throw await twice(registry.symbols[joined.symbolIds[row]], joined.columns.date[row], [
      await placeIn(task.files, await locateNew(first)),
      await placeIn(task.files, await locateNew(row)),
    ]);
  }
  const order = grouped.order;
  const newAt = (position: number): number => (order === null ? position : order[position]);

  const fundamentals =
    raw !== null
      ? await sortFundamentals(raw, rank, registry.symbols, task.fundamentals.file!)
      : task.fundamentals.file === null
        ? emptyFundamentals(symbols.length)
        : carryFundamentals(oldFundamentals, meta.symbols, symbols);
  // The market's pack laid out at its final sizes: the merged columns are written straight into it.
  const days = unionDays(oldDays, joined.columns.date);
  const total = old.date.length + joined.symbolIds.length;
  const fundamentalColumns = Object.keys(fundamentals.columns);
  const { index, size } = packLayout({
    symbols: symbols.length,
    rows: total,
    fundamentalRows: fundamentals.date.length,
    fundamentalColumns,
    days: days.length,
  });
  const bytes = packInto(size);
  const views = unpackMarket(bytes.buffer, bytes.byteOffset, index, fundamentalColumns, symbols.length);
  views.tradingDays!.set(days);
  const out = views.klines;
  const offsets = out.offsets;
  /** Symbols whose new rows moved their latest or smallest factor: their whole history is checked again. */
  const whole = new Uint8Array(symbols.length);
  /** Where the new rows went (ascending): checked alone for a symbol whose factors stayed. */
  const newRows = new Int32Array(joined.symbolIds.length);
  /**
   * Whether every new row is dated after the market's last stored day: the stored K-lines kept as
   * they were, and every new row among the days the edition adds (a row back-filled for a symbol
   * that did not trade then is not: a subscriber's bars would not hold it).
   */
  const last = meta.lastDate;
  const appendedOnly = last === null || joined.columns.date.every((d) => d > last);
  let placed = 0;
  let at = 0;
  for (let r = 0; r < symbols.length; r++) {
    offsets[r] = at;
    const o = oldRank.get(symbols[r]);
    let i = o === undefined ? 0 : old.offsets[o];
    const iEnd = o === undefined ? 0 : old.offsets[o + 1];
    let j = grouped.offsets[r];
    const jEnd = grouped.offsets[r + 1];
    // Stored rows before the first new date go over in one copy (usually all of them: a day appended).
    const firstNew = j < jEnd ? joined.columns.date[newAt(j)] : Number.POSITIVE_INFINITY;
    let runEnd = i;
    while (runEnd < iEnd && old.date[runEnd] < firstNew) runEnd++;
    copyRun(old, i, runEnd, out, at);
    at += runEnd - i;
    i = runEnd;
    while (i < iEnd || j < jEnd) {
      const oldDate = i < iEnd ? old.date[i] : Number.POSITIVE_INFINITY;
      const row = j < jEnd ? newAt(j) : -1;
      const newDate = row < 0 ? Number.POSITIVE_INFINITY : joined.columns.date[row];
      if (oldDate === newDate)
        throw await twice(symbols[r], newDate, [
          await findStoredRow(task.files, symbols[r], newDate),
          await placeIn(task.files, await locateNew(row)),
        ]);
      if (oldDate < newDate) copyRun(old, i, i + 1, out, at), i++;
      else {
        out.date[at] = newDate;
        for (const name of KLINE_VALUE_COLUMNS) out[name][at] = joined.columns[name][row];
        newRows[placed++] = at;
        j++;
      }
      at++;
    }
    if (grouped.offsets[r + 1] > grouped.offsets[r] && factorsMoved(old, o, out, offsets[r], at)) whole[r] = 1;
  }
  offsets[symbols.length] = at;
  const klines: KlineColumns = out;
  const outOfBounds = firstOutOfBounds(klines, whole, newRows);
  if (outOfBounds !== null) {
    const r = symbolOfRow(offsets, outOfBounds.position);
    const date = klines.date[outOfBounds.position];
    const isNew = oldRank.get(symbols[r]) === undefined || !storedHas(old, oldRank.get(symbols[r])!, date);
    const place = isNew
      ? await locateNew(newRowOf(joined, grouped.offsets, newAt, r, date))
      : await findStoredRow(task.files, symbols[r], date);
    throw new SnapshotError(place.display, place.line, outOfBounds.reason);
  }
  const oldLabel = (values: (string | null)[]) => (symbol: string) => {
    const o = oldRank.get(symbol);
    return o === undefined ? null : values[o];
  };
  const byRank = <T>(values: (T | null)[] | undefined): (T | null)[] =>
    reorder(
      registry.symbols.map((_, id) => values?.[id] ?? null),
      rank,
    );
  // symbols.csv read (changed, or needed): its labels, none when it is gone; else the stored ones.
  const label = (fresh: (string | null)[] | undefined, stored: (string | null)[]): (string | null)[] =>
    task.symbols.read ? byRank(fresh) : symbols.map(oldLabel(stored));
  return {
    parsed: {
      market: task.market,
      symbols,
      names: label(labels?.names, meta.names),
      marketNames: label(labels?.marketNames, meta.marketNames),
      marketTypes: label(labels?.marketTypes, meta.marketTypes),
      klines,
      fundamentals,
      pack: { bytes, index, days: views.tradingDays! },
    },
    reads,
    appendedOnly,
  };
}

/** The trading days of stored K-lines (a part stored before they were kept with it). */
function storedDays(k: KlineColumns): Int32Array {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < k.date.length; i++) (first = Math.min(first, k.date[i])), (last = Math.max(last, k.date[i]));
  return k.date.length === 0 ? new Int32Array(0) : tradingDays(k.date, first, last);
}

/** The stored trading days and the new rows' dates, distinct and ascending: the days a full read would find. */
function unionDays(stored: Int32Array, dates: Int32Array): Int32Array {
  const fresh = new Set<number>();
  for (let i = 0; i < dates.length; i++) fresh.add(dates[i]);
  for (let i = 0; i < stored.length; i++) fresh.delete(stored[i]);
  if (fresh.size === 0) return stored.slice();
  const all = new Int32Array(stored.length + fresh.size);
  all.set(stored);
  all.set(Int32Array.from(fresh), stored.length);
  return all.sort();
}

/**
 * Whether a symbol's merged rows [from, to) have another latest factor, or another smallest one
 * (its value, or its first day), than its stored run had: then every one of its rows is checked
 * again (a qfq price moves with them).
 */
function factorsMoved(old: KlineColumns, o: number | undefined, out: KlineColumns, from: number, to: number): boolean {
  if (o === undefined || old.offsets[o + 1] === old.offsets[o]) return true;
  const smallestOf = (k: KlineColumns, a: number, b: number): number => {
    let min = a;
    for (let row = a + 1; row < b; row++) if (k.adj_factor[row] < k.adj_factor[min]) min = row;
    return min;
  };
  const oldMin = smallestOf(old, old.offsets[o], old.offsets[o + 1]);
  const newMin = smallestOf(out, from, to);
  return (
    old.adj_factor[old.offsets[o + 1] - 1] !== out.adj_factor[to - 1] ||
    old.adj_factor[oldMin] !== out.adj_factor[newMin] ||
    old.date[oldMin] !== out.date[newMin]
  );
}

/** Copies stored rows [from, to) to `out` at `at`. */
function copyRun(old: KlineColumns, from: number, to: number, out: Omit<KlineColumns, 'offsets'>, at: number): void {
  if (to <= from) return;
  out.date.set(old.date.subarray(from, to), at);
  for (const name of KLINE_VALUE_COLUMNS) out[name].set(old[name].subarray(from, to), at);
}

/** The stored fundamentals re-indexed by the merged symbols (copied: the part is let go of after). */
function carryFundamentals(f: FundamentalColumns, oldSymbols: string[], symbols: string[]): FundamentalColumns {
  const oldRank = new Map(oldSymbols.map((s, i) => [s, i]));
  const offsets = new Int32Array(new SharedArrayBuffer((symbols.length + 1) * 4));
  let at = 0;
  for (let r = 0; r < symbols.length; r++) {
    offsets[r] = at;
    const o = oldRank.get(symbols[r]);
    if (o !== undefined) at += f.offsets[o + 1] - f.offsets[o];
  }
  offsets[symbols.length] = at;
  const columns: Record<string, Float64Array> = {};
  for (const [name, values] of Object.entries(f.columns)) {
    columns[name] = new Float64Array(new SharedArrayBuffer(values.byteLength));
    columns[name].set(values);
  }
  const date = new Int32Array(new SharedArrayBuffer(f.date.byteLength));
  date.set(f.date);
  return { offsets, date, columns };
}

/** The symbol whose rows hold `position`. */
function symbolOfRow(offsets: Int32Array, position: number): number {
  let lo = 0;
  let hi = offsets.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid] <= position) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function storedHas(old: KlineColumns, o: number, date: number): boolean {
  for (let i = old.offsets[o]; i < old.offsets[o + 1]; i++) if (old.date[i] === date) return true;
  return false;
}

/** The joined row of symbol rank `r` on `date`. */
function newRowOf(
  joined: { columns: { date: Int32Array } },
  offsets: Int32Array,
  newAt: (position: number) => number,
  r: number,
  date: number,
): number {
  for (let j = offsets[r]; j < offsets[r + 1]; j++) if (joined.columns.date[newAt(j)] === date) return newAt(j);
  throw new Error(`no new row of rank ${r} on day ${date}`);
}

/** A place with its file's position in the market's order (for telling which of two comes first). */
async function placeIn(files: FileRef[], place: { display: string; line: number }) {
  return { ...place, file: files.findIndex((f) => f.display === place.display) };
}

/** The refusal of a (symbol, date) found twice: at the later place in file order, naming the first. */
async function twice(
  symbol: string,
  date: number,
  places: { display: string; line: number; file?: number }[],
): Promise<SnapshotError> {
  const [first, later] = [...places].sort((a, b) => (a.file ?? 0) - (b.file ?? 0) || a.line - b.line);
  return new SnapshotError(
    later.display,
    later.line,
    duplicateReason(symbol, date, first.line, first.display === later.display ? null : first.display),
  );
}
