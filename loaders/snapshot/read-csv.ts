// Reads one snapshot CSV (plain or gzip) line by line, hashing its bytes on the way.

import { BlockHasher, type FileBlocks, identityOf } from './block-hash.js';
import { readFileBytes } from './file-bytes.js';
import type { LoadLimits } from './limits.js';
import { LineSplitter } from './line-splitter.js';
import { RowError, SnapshotError } from './snapshot-error.js';
import { splitCells } from './split-cells.js';

/** A file of the snapshot: where it is, how errors name it, and the bounds to read it within. */
export interface FileRef {
  path: string;
  /** The path relative to the snapshot folder (`ashare/klines.csv`). */
  display: string;
  limits: LoadLimits;
}

/** What a reader of one CSV file gets: header names (trimmed, lower-case) first, then rows. */
export interface CsvHandler {
  /** Called once with the header; throw a SnapshotError (line 1) for a missing column. */
  header(names: readonly string[]): void;
  /** Called per data row with its physical line; throw a RowError to reject the file there. */
  row(cells: readonly string[], line: number): void;
}

export interface CsvResult {
  rows: number;
  /** The file's bytes as stored (compressed bytes for `.csv.gz`), block by block, and their identity. */
  blocks: FileBlocks;
  hash: string;
}

/**
 * Reads the file. Line 1 is the header; every other line is a row with exactly the
 * header's number of cells, or blank (skipped). The file is read whole or rejected: a
 * RowError from the parser or the handler becomes a SnapshotError naming the physical
 * line, so a broken last line is an error, never a dropped row. More than `maxRows` rows
 * (counted by countRows before) means the file changed while it was read.
 */
export async function readCsv(file: FileRef, handler: CsvHandler, maxRows = Infinity): Promise<CsvResult> {
  let width = 0;
  let rows = 0;
  const lines = new LineSplitter(file.limits.maxLineBytes, (text, line) => {
    if (line === 1) {
      const names = splitCells(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      if (names.length === 1 && names[0].trim() === '')
        throw new RowError('no header: the first line must name the columns');
      width = names.length;
      handler.header(names.map((name) => name.trim().toLowerCase()));
      return;
    }
    if (text.length === 0) return;
    const cells = splitCells(text);
    if (cells.length !== width) throw new RowError(`${cells.length} cells where the header has ${width}`);
    if (rows === maxRows) throw new RowError('more rows than a moment ago: the file changed while it was read');
    handler.row(cells, line);
    rows++;
  });
  const hasher = new BlockHasher();
  try {
    await readFileBytes(file, hasher, (bytes) => lines.push(bytes));
    lines.end();
  } catch (error) {
    if (error instanceof RowError) throw new SnapshotError(file.display, lines.line, error.reason);
    throw error;
  }
  if (lines.line === 1) throw new SnapshotError(file.display, 1, 'empty file: a header row is required');
  const blocks = hasher.done();
  return { rows, blocks, hash: identityOf(blocks) };
}

const FOUND = Symbol('found');

/**
 * The physical line of data row `rowIndex` (0 = the first row after the header), read
 * again from the file: only called on an error path, after readCsv accepted every line.
 */
export async function locateRow(file: FileRef, rowIndex: number): Promise<number> {
  let row = -1;
  let found = 0;
  const lines = new LineSplitter(file.limits.maxLineBytes, (text, line) => {
    if (line === 1 || text.length === 0) return;
    if (++row === rowIndex) {
      found = line;
      throw FOUND;
    }
  });
  try {
    await readFileBytes(file, null, (bytes) => lines.push(bytes));
    lines.end();
  } catch (error) {
    if (error !== FOUND) throw error;
  }
  return found;
}
