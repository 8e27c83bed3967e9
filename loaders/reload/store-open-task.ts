// Worker thread: store a snapshot folder (if given) and open the current one, off the serving thread, telling its stages as it goes.

import { parentPort, workerData } from 'node:worker_threads';
import { deriveParts, type DatasetParts } from '../build-dataset.js';
import { readSnapshotEnv } from '../lmdb/from-lmdb.js';
import { versionDir } from '../lmdb/layout.js';
import { readCurrent, storeSnapshot, type StoreResult } from '../lmdb/snapshot-store.js';
import { estimateKlineRows } from '../snapshot/estimate-rows.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';

export interface StoreOpenJob {
  folder: string | null;
  stateDir: string;
  /** Skip opening when the stored version equals this one (an unchanged folder). */
  servedVersion: string | null;
}

/**
 * Progress on the way: `read` starts reading the folder (about `totalRows` K-line rows, an
 * estimate), `rows` counts rows read since the last message, `open` starts opening the
 * stored version. Sent at most every {@link ROWS_EVERY_MS} for rows, so a big folder's
 * millions of row callbacks are a handful of messages.
 */
export type StoreOpenProgress = { progress: 'read'; totalRows: number } | { progress: 'rows'; rows: number } | { progress: 'open' };

/** The answer, last: plain data only (structured clone keeps no Error fields; shared columns cross without a copy). */
export type StoreOpenResult =
  | { ok: true; store: StoreResult | null; parts: DatasetParts | null }
  | { ok: false; rejected: { file: string; line: number; reason: string } | null; message: string };

export type StoreOpenMessage = StoreOpenProgress | StoreOpenResult;

const ROWS_EVERY_MS = 100;

function tell(message: StoreOpenProgress): void {
  parentPort!.postMessage(message);
}

/** Counts rows and posts them in batches; `flush` sends what is left (before the next stage). */
function rowCounter(): { add(rows: number): void; flush(): void } {
  let pending = 0;
  let last = performance.now();
  const flush = (): void => {
    if (pending > 0) tell({ progress: 'rows', rows: pending });
    pending = 0;
    last = performance.now();
  };
  return {
    add(rows) {
      pending += rows;
      if (performance.now() - last >= ROWS_EVERY_MS) flush();
    },
    flush,
  };
}

async function run(job: StoreOpenJob): Promise<StoreOpenResult> {
  try {
    let store: StoreResult | null = null;
    if (job.folder !== null) {
      tell({ progress: 'read', totalRows: await estimateKlineRows(job.folder) });
      const rows = rowCounter();
      store = await storeSnapshot(job.folder, job.stateDir, { onRows: (n) => rows.add(n) });
      rows.flush();
    }
    tell({ progress: 'open' });
    const current = await readCurrent(job.stateDir);
    if (current === null) return { ok: false, rejected: null, message: `no snapshot stored under ${job.stateDir}` };
    if (current.version === job.servedVersion) return { ok: true, store, parts: null };
    // One thread (this one) copies: helpers would take the cores the server is answering on.
    return { ok: true, store, parts: deriveParts(await readSnapshotEnv(versionDir(job.stateDir, current.version), 0)) };
  } catch (error) {
    if (error instanceof SnapshotError) return { ok: false, rejected: { file: error.file, line: error.line, reason: error.reason }, message: error.message };
    return { ok: false, rejected: null, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

parentPort!.postMessage(await run(workerData as StoreOpenJob));
