// Writes small snapshot folders for tests: file path → text or bytes (gzipped when the path ends in .gz).

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** A fresh temporary folder; `cleanup` removes it. */
export async function tempDir(prefix = 'mdq-test-'): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** Writes `files` under `root` (created if needed); a Buffer is written as its bytes. */
export async function writeSnapshotFolder(root: string, files: Record<string, string | Buffer>): Promise<string> {
  for (const [name, text] of Object.entries(files)) {
    const path = join(root, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, name.endsWith('.gz') ? gzipSync(text) : text);
  }
  return root;
}

/** CSV text from a header line and row lines. */
export const csv = (...lines: string[]): string => `${lines.join('\n')}\n`;

export const KLINE_HEADER = 'symbol,date,open,high,low,close,volume,amount,adj_factor';
