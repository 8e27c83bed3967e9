// A quick estimate of a snapshot's K-line rows, for the progress percentage only.

import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const SAMPLE_BYTES = 64 * 1024;
const GZIP_RATIO = 4; // typical for numeric CSV; only the percentage depends on it

/** Rows ≈ file size ÷ bytes per row of the first 64 KiB, summed over market folders. */
export async function estimateKlineRows(folder: string): Promise<number> {
  let rows = 0;
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    for (const file of ['klines.csv', 'klines.csv.gz']) {
      const path = join(folder, name, file);
      const size = await stat(path).then((s) => s.size, () => 0);
      if (size === 0) continue;
      if (file.endsWith('.gz')) {
        rows += (size * GZIP_RATIO) / 60;
        continue;
      }
      const handle = await open(path, 'r');
      try {
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(SAMPLE_BYTES), 0, SAMPLE_BYTES, 0);
        const lines = buffer.subarray(0, bytesRead).toString('latin1').split('\n').length - 1;
        rows += lines > 1 ? size / (bytesRead / lines) : 0;
      } finally {
        await handle.close();
      }
    }
  }
  return Math.round(rows);
}
