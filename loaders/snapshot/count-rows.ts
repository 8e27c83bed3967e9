// A first, cheap pass over a CSV file: counts its rows so that columns are allocated once.

import { readFileBytes } from './file-bytes.js';
import type { FileRef } from './read-csv.js';
import { SnapshotError } from './snapshot-error.js';

const NEWLINE = 10;
const CR = 13;

/**
 * Data rows of the file: non-blank lines after the header, as readCsv counts them. The
 * bytes are only scanned, never decoded; a line longer than the limit or a gzip that
 * expands too far is rejected here, before any memory is spent on rows.
 */
export async function countRows(file: FileRef): Promise<number> {
  const max = file.limits.maxLineBytes;
  let line = 1;
  let lineBytes = 0; // of the line being scanned, '\r' included
  let lastByte = 0;
  let nonBlank = 0;
  const tooLong = (): SnapshotError => new SnapshotError(file.display, line, `line longer than ${max} bytes`);
  const endLine = (): void => {
    const length = lastByte === CR ? lineBytes - 1 : lineBytes;
    if (length > max) throw tooLong();
    if (length > 0) nonBlank++;
    line++;
    lineBytes = 0;
    lastByte = 0;
  };
  await readFileBytes(file, null, (chunk) => {
    for (let start = 0; ; ) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline < 0 ? chunk.length : newline;
      if (end > start) {
        lineBytes += end - start;
        lastByte = chunk[end - 1];
        if (lineBytes > max + 1) throw tooLong(); // at once: the rest of a huge line is never read
      }
      if (newline < 0) return;
      endLine();
      start = newline + 1;
    }
  });
  if (lineBytes > 0) endLine();
  return Math.max(0, nonBlank - 1);
}
