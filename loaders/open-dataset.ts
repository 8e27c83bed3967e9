// Opens the stored snapshot named by current.json as a ready Dataset.

import type { Dataset } from '../engine/dataset/dataset.js';
import { buildDataset } from './build-dataset.js';
import { readSnapshotEnv } from './lmdb/from-lmdb.js';
import { versionDir } from './lmdb/layout.js';
import { readCurrent } from './lmdb/snapshot-store.js';

/** The Dataset of the current stored snapshot, or null when none has been stored. */
export async function openCurrentDataset(stateDir: string): Promise<Dataset | null> {
  const current = await readCurrent(stateDir);
  if (current === null) return null;
  return buildDataset(await readSnapshotEnv(versionDir(stateDir, current.version)));
}
