// A market's K-line rows joined from its files' pieces, in file order, with the market's symbol
// ids; and, on the error path, the file and line a joined row came from.

import { KLINE_VALUE_COLUMNS } from '../../engine/dataset/kline-columns.js';
import type { KlinePiece, PieceResult } from './kline-pieces.js';
import { allocateRows, type KlineRows } from './kline-lines.js';
import { locateRow, type FileRef } from './read-csv.js';
import { duplicateReason } from './repeated-dates.js';
import { RowError, SnapshotError } from './snapshot-error.js';
import type { SymbolRegistry } from './symbol-registry.js';

/** One file's pieces, the rows each counted, and what each gave, in file order. */
export interface ParsedFile {
  file: FileRef;
  pieces: KlinePiece[];
  counts: number[];
  results: PieceResult[];
}

/** The views of `rows` where each piece of `files` writes, in order (as many rows as it counted). */
export function pieceViews(files: { counts: number[] }[], rows: KlineRows): KlineRows[] {
  const views: KlineRows[] = [];
  let at = 0;
  for (const f of files)
    for (const n of f.counts) {
      const columns = { date: rows.columns.date.subarray(at, at + n) } as KlineRows['columns'];
      for (const name of KLINE_VALUE_COLUMNS) columns[name] = rows.columns[name].subarray(at, at + n);
      views.push({ symbolIds: rows.symbolIds.subarray(at, at + n), columns });
      at += n;
    }
  return views;
}

/** Columns for the rows `files` counted (shared: pieces on other threads write their parts of them). */
export function rowsFor(files: { counts: number[] }[]): KlineRows {
  return allocateRows(
    files.reduce((sum, f) => sum + f.counts.reduce((a, b) => a + b, 0), 0),
    true,
  );
}

/** Where a joined row came from: its file, and which of the file's data rows it is. */
export interface RowSource {
  file: FileRef;
  /** The file's data rows counted before this part of it (rows kept in a stored edition, for a tail). */
  rowsBefore: number;
}

/** Finds the file and physical line of a joined row (an error path: the file is read again). */
export type RowLocator = (row: number) => Promise<{ display: string; line: number }>;

/** Rows joined from files: ids in the market's registry, and the files they came from, in order. */
export interface JoinedRows extends KlineRows {
  /** Rows [first, first + count) came from `source`. */
  spans: { first: number; count: number; source: RowSource }[];
}

/**
 * Joins the rows the pieces wrote into `rows` (in file order, each file's pieces in order): every
 * symbol gets its id in `registry`. The first piece that failed, in that order, rejects the
 * snapshot at its line (counted from the file's start: a piece that counted its own lines is
 * moved by the lines of the pieces before it). `rowsBefore` gives, per file, data rows before its
 * first piece (a tail's).
 */
export async function joinPieces(
  files: ParsedFile[],
  rows: KlineRows,
  registry: SymbolRegistry,
  rowsBefore: (file: FileRef) => number = () => 0,
): Promise<JoinedRows> {
  for (const { file, pieces, counts, results } of files) {
    let linesBefore = 0;
    for (let p = 0; p < results.length; p++) {
      const r = results[p];
      const offset = pieces[p].firstLine === null ? linesBefore : 0;
      if (!r.ok) {
        const line = r.line === 0 ? 0 : offset + r.line;
        const reason =
          r.repeat === null ? r.reason : duplicateReason(r.repeat.symbol, r.repeat.date, offset + r.repeat.firstLine);
        throw new SnapshotError(file.display, line, reason);
      }
      // Fewer rows than counted a moment ago: the file changed in between.
      if (r.rows !== counts[p])
        throw new SnapshotError(
          file.display,
          0,
          'the file changed while it was being read; load the folder again once it is complete',
        );
      linesBefore += r.lines;
    }
  }
  const joined = rows as JoinedRows;
  joined.spans = [];
  let at = 0;
  for (const { file, results } of files) {
    const first = at;
    let fileRows = 0;
    for (const r of results) {
      if (!r.ok) continue;
      const ids = new Int32Array(r.symbols.length);
      for (let local = 0; local < r.symbols.length; local++) {
        try {
          ids[local] = registry.idOf(r.symbols[local]);
        } catch (error) {
          if (!(error instanceof RowError)) throw error;
          // A symbol clashing with one met before (only by case): at the first row that names it.
          const row = rows.symbolIds.subarray(at, at + r.rows).indexOf(local);
          const line = await locateRow(file, rowsBefore(file) + fileRows + Math.max(0, row));
          throw new SnapshotError(file.display, line, error.reason);
        }
      }
      for (let i = at; i < at + r.rows; i++) rows.symbolIds[i] = ids[rows.symbolIds[i]];
      at += r.rows;
      fileRows += r.rows;
    }
    joined.spans.push({ first, count: at - first, source: { file, rowsBefore: rowsBefore(file) } });
  }
  return joined;
}

/** The locator of rows laid out as `spans` say (rows before the first span, at `base`, are a stored edition's: `stored` finds those). */
export function spanLocator(spans: JoinedRows['spans'], base = 0, stored: RowLocator | null = null): RowLocator {
  return async (row) => {
    if (row < base && stored !== null) return stored(row);
    const local = row - base;
    const span = spans.find((s) => local >= s.first && local < s.first + s.count);
    if (span === undefined) throw new Error(`row ${row} is in no file`);
    const { file, rowsBefore } = span.source;
    return { display: file.display, line: await locateRow(file, rowsBefore + local - span.first) };
  };
}

/** The locator of a single file's rows, in file order. */
export const fileLocator =
  (file: FileRef): RowLocator =>
  async (row) => ({ display: file.display, line: await locateRow(file, row) });
