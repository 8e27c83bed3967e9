// Runs store + open on a worker thread so the serving thread never blocks on parsing or copying.

import { Worker } from 'node:worker_threads';
import { assembleDataset } from '../build-dataset.js';
import type { Dataset } from '../../engine/dataset/dataset.js';
import type { StoreResult } from '../lmdb/snapshot-store.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';
import type { StoreOpenJob, StoreOpenMessage, StoreOpenProgress } from './store-open-task.js';

export interface StoreAndOpenResult {
  store: StoreResult | null;
  /** The new Dataset, or null when the stored version is the one already served. */
  dataset: Dataset | null;
}

/** What the worker reports on the way, plus `assemble`: the last step, on this thread. */
export type StoreAndOpenProgress = StoreOpenProgress | { progress: 'assemble' };

/**
 * Stores `folder` (null: just open the current stored snapshot) and opens the result, all
 * on a worker thread; only assembling the Dataset (symbol maps) runs here. A rejected
 * snapshot throws a SnapshotError and changes nothing. `onProgress` hears each stage as it
 * starts and the rows read so far (see StoreOpenProgress).
 */
export function storeAndOpen(job: StoreOpenJob, onProgress: (p: StoreAndOpenProgress) => void = () => {}): Promise<StoreAndOpenResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./store-open-task.js', import.meta.url), { workerData: job });
    let settled = false;
    worker.on('message', (message: StoreOpenMessage) => {
      if ('progress' in message) {
        if (!settled) onProgress(message);
        return;
      }
      settled = true;
      try {
        if (message.ok) {
          if (message.parts !== null) onProgress({ progress: 'assemble' });
          resolve({ store: message.store, dataset: message.parts === null ? null : assembleDataset(message.parts) });
        } else if (message.rejected !== null) reject(new SnapshotError(message.rejected.file, message.rejected.line, message.rejected.reason));
        else reject(new Error(message.message));
      } catch (error) {
        reject(error);
      }
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`snapshot worker exited with code ${code} before answering`));
    });
  });
}
