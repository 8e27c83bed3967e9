// Worker thread: store a snapshot folder (if given) and open the current one, off the serving thread.

import { parentPort, workerData } from 'node:worker_threads';
import { deriveParts, type DatasetParts } from '../build-dataset.js';
import { readSnapshotEnv } from '../lmdb/from-lmdb.js';
import { versionDir } from '../lmdb/layout.js';
import { readCurrent, storeSnapshot, type StoreResult } from '../lmdb/snapshot-store.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';

export interface StoreOpenJob {
  folder: string | null;
  stateDir: string;
  /** Skip opening when the stored version equals this one (an unchanged folder). */
  servedVersion: string | null;
}

/** Plain data only: structured clone keeps no Error fields; shared columns cross without a copy. */
export type StoreOpenMessage =
  | { ok: true; store: StoreResult | null; parts: DatasetParts | null }
  | { ok: false; rejected: { file: string; line: number; reason: string } | null; message: string };

async function run(job: StoreOpenJob): Promise<StoreOpenMessage> {
  try {
    const store = job.folder === null ? null : await storeSnapshot(job.folder, job.stateDir);
    const current = await readCurrent(job.stateDir);
    if (current === null) return { ok: false, rejected: null, message: `no snapshot stored under ${job.stateDir}` };
    if (current.version === job.servedVersion) return { ok: true, store, parts: null };
    return { ok: true, store, parts: deriveParts(await readSnapshotEnv(versionDir(job.stateDir, current.version))) };
  } catch (error) {
    if (error instanceof SnapshotError) return { ok: false, rejected: { file: error.file, line: error.line, reason: error.reason }, message: error.message };
    return { ok: false, rejected: null, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

parentPort!.postMessage(await run(workerData as StoreOpenJob));
