// A worker task that reads one market folder; markets are read in parallel, one per core.

import { parentPort } from 'node:worker_threads';
import type { Market } from '../../engine/markets.js';
import type { LoadLimits } from './limits.js';
import type { ParsedMarket } from './parsed-snapshot.js';
import { readMarket } from './read-snapshot.js';
import { SnapshotError } from './snapshot-error.js';

export interface MarketTask {
  folder: string;
  market: Market;
  limits: LoadLimits;
}

/** A rejection crosses the thread boundary as plain data: structured clone drops Error fields. */
export type MarketTaskResult =
  | { ok: true; parsed: ParsedMarket; hashes: string[] }
  | { ok: false; file: string; line: number; reason: string };

/**
 * Reads the market. Its columns are made in SharedArrayBuffers, so the result reaches the
 * main thread without cloning the column bytes.
 */
export default async function readMarketTask({ folder, market, limits }: MarketTask): Promise<MarketTaskResult> {
  const hashes: string[] = [];
  try {
    const parsed = await readMarket(folder, market, limits, hashes, (rows) => parentPort?.postMessage({ rows }));
    return { ok: true, parsed, hashes };
  } catch (error) {
    if (error instanceof SnapshotError) return { ok: false, file: error.file, line: error.line, reason: error.reason };
    throw error;
  }
}
