// Copies of the fixture snapshot with one line changed: the folders reload and drain tests switch between.

import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The hand-made fixture snapshot (snapshots/fixtures/derived). */
export const FIXTURE = fileURLToPath(new URL('../../../snapshots/fixtures/derived', import.meta.url));

/**
 * Copies the fixture to `dir`; each edit replaces one whole line of one file (`from` must
 * be found exactly once). Returns `dir`.
 */
export async function fixtureCopy(
  dir: string,
  edits: { file: string; from: string; to: string }[] = [],
): Promise<string> {
  await cp(FIXTURE, dir, { recursive: true });
  for (const { file, from, to } of edits) {
    const path = join(dir, file);
    const lines = (await readFile(path, 'utf8')).split('\n');
    const at = lines.indexOf(from);
    if (at < 0 || lines.indexOf(from, at + 1) >= 0)
      throw new Error(`${file}: expected the line '${from}' exactly once`);
    lines[at] = to;
    await writeFile(path, lines.join('\n'));
  }
  return dir;
}

/** sh600001's last K-line row in the fixture (close 6.30). */
export const LAST_ROW = 'sh600001,2025-03-14,6.23,6.36,6.22,6.30,46211,28951191.50,2.157024';
/** The same row with close 6.31: a valid snapshot with one changed price. */
export const LAST_ROW_CLOSE_631 = 'sh600001,2025-03-14,6.23,6.36,6.22,6.31,46211,28951191.50,2.157024';
/** A row of the fixture and the same row with high 6.10 below low 6.15: a snapshot that must be rejected. */
export const ROW_13 = 'sh600001,2025-03-13,6.25,6.26,6.15,6.18,41827,25995480.50,2.157024';
export const ROW_13_HIGH_BELOW_LOW = 'sh600001,2025-03-13,6.25,6.10,6.15,6.18,41827,25995480.50,2.157024';
