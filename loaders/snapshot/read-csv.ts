// Streams one snapshot CSV (plain or gzip) through uDSV, hashing its bytes on the way.

import { createHash } from 'node:crypto';
import { inferSchema, initParser, type Parser } from 'udsv';
import { locateRow } from './locate-row.js';
import { RowError, SnapshotError } from './snapshot-error.js';
import { textChunks } from './text-chunks.js';

/** What a reader of one CSV file gets: header names (trimmed, lower-case) first, then rows. */
export interface CsvHandler {
  /** Called once with the header; throw a SnapshotError (line 1) for a missing column. */
  header(names: readonly string[]): void;
  /** Called per data row (0-based `rowIndex`); throw a RowError to reject the file at that row. */
  row(cells: readonly string[], rowIndex: number): void;
}

export interface CsvResult {
  rows: number;
  /** sha256 of the file's bytes as stored (compressed bytes for `.csv.gz`). */
  sha256: string;
}

/**
 * Reads `path` (shown as `display` in errors) row by row. Any RowError thrown by the
 * handler becomes a SnapshotError naming the row's physical line; a gzip or I/O fault
 * becomes one naming the file.
 */
export async function readCsv(path: string, display: string, handler: CsvHandler): Promise<CsvResult> {
  const hash = createHash('sha256');
  let parser: Parser | null = null;
  let pending = '';
  let rows = 0;
  const onRow = (cells: string[]): void => {
    handler.row(cells, rows);
    rows++;
  };
  const start = (text: string): Parser => {
    // uDSV infers the row delimiter from the first line, which must therefore be complete.
    const schema = inferSchema(text, { col: ',', encl: '"', esc: '"' }, 1);
    handler.header(schema.cols.map((c) => String(c.name).trim().toLowerCase()));
    const started = initParser(schema);
    started.chunk<string[]>(text, started.stringArrs, onRow);
    return started;
  };
  try {
    for await (const text of textChunks(path, hash)) {
      if (parser === null) {
        pending += text;
        if (!/\r|\n/.test(pending)) continue;
        parser = start(pending);
        pending = '';
        continue;
      }
      parser.chunk<string[]>(text, parser.stringArrs, onRow);
    }
    if (parser === null) {
      if (pending.trim().length === 0) throw new SnapshotError(display, 1, 'empty file: a header row is required');
      parser = start(pending + '\n');
    }
    parser.end();
  } catch (error) {
    if (error instanceof RowError) {
      const line = await locateRow(path, error.rowIndex);
      throw new SnapshotError(display, line, error.reason);
    }
    if (error instanceof SnapshotError) throw error;
    throw new SnapshotError(display, 0, `cannot read: ${(error as Error).message}`);
  }
  return { rows, sha256: hash.digest('hex') };
}
