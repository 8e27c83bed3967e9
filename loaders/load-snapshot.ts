// Stores a snapshot folder with progress shown: the one path the CLI, start-up and reload share.

import { storeSnapshot, type StoreResult } from './lmdb/snapshot-store.js';
import { startProgress } from './progress.js';
import { estimateKlineRows } from './snapshot/estimate-rows.js';

/** storeSnapshot with a progress line on a terminal (a summary line otherwise). */
export async function loadSnapshot(folder: string, stateDir: string): Promise<StoreResult> {
  const progress = startProgress('load', await estimateKlineRows(folder));
  const result = await storeSnapshot(folder, stateDir, { onRows: (n) => progress.add(n) });
  if (!result.skippedRead) progress.done();
  return result;
}
