// A quick estimate of a snapshot's K-line rows, for the progress percentage only.

import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MARKETS } from '../../engine/markets.js';

const SAMPLE_BYTES = 64 * 1024;
const GZIP_RATIO = 4; // typical for numeric CSV; only the percentage depends on it

/**
 * Rows ≈ file size ÷ bytes per row of the first 64 KiB, summed over market folders. Never
 * fails: a file it cannot read counts 0 (the loader itself reports what is wrong).
 */
export async function estimateKlineRows(folder: string): Promise<number> {
  let rows = 0;
  for (const market of MARKETS) {
    for (const file of ['klines.csv', 'klines.csv.gz'])
      rows += await estimateFile(join(folder, market, file)).catch(() => 0);
  }
  return Math.round(rows);
}

/** The estimate for one K-line file (0 when it cannot be read). */
export const estimateFileRows = (path: string): Promise<number> => estimateFile(path).then(Math.round, () => 0);

async function estimateFile(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isFile() || info.size === 0) return 0; // a FIFO would block the open below
  if (path.endsWith('.gz')) return (info.size * GZIP_RATIO) / 60;
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(SAMPLE_BYTES), 0, SAMPLE_BYTES, 0);
    const lines = buffer.subarray(0, bytesRead).toString('latin1').split('\n').length - 1;
    return lines > 1 ? info.size / (bytesRead / lines) : 0;
  } finally {
    await handle.close();
  }
}
