// Start-up: make sure a snapshot is stored (loading or generating one if need be), then open it.

import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dataset } from '../engine/dataset/dataset.js';
import { readCurrent, type StoreResult } from './lmdb/snapshot-store.js';
import { loadSnapshot } from './load-snapshot.js';
import { openCurrentDataset } from './open-dataset.js';

export interface DatasetSources {
  stateDir: string;
  /** A snapshot folder to load (SNAPSHOT_DIR / --snapshot), or null for the stored one. */
  snapshotDir: string | null;
  /** Where the built-in demo snapshot lives, and how to make it when it does not exist yet. */
  demoDir: string;
  generateDemo: (dir: string) => Promise<unknown>;
  log: (line: string) => void;
}

export interface Opened {
  dataset: Dataset;
  /** The folder the snapshot was read from: what a reload reads again. */
  source: string;
  openSeconds: number;
}

/**
 * The snapshot to serve: the folder given, else the stored current one, else the demo
 * (generated first when `demoDir` holds none). Loading an unchanged folder is a no-op.
 */
export async function ensureDataset(sources: DatasetSources): Promise<Opened> {
  const { stateDir, log } = sources;
  let folder = sources.snapshotDir;
  if (folder === null && (await readCurrent(stateDir)) === null) {
    folder = sources.demoDir;
    if (!(await exists(join(folder, 'manifest.json')))) {
      log(`no snapshot stored yet: generating the built-in demo snapshot (synthetic data) into ${folder}`);
      await sources.generateDemo(folder);
    }
  }
  if (folder !== null) report(await loadSnapshot(folder, stateDir), folder, log);
  const started = performance.now();
  const dataset = await openCurrentDataset(stateDir);
  if (dataset === null) throw new Error(`no snapshot stored under ${stateDir}`);
  const openSeconds = (performance.now() - started) / 1000;
  const source = (await readCurrent(stateDir))!.source;
  log(`serving ${dataset.version} from ${source} (opened in ${openSeconds.toFixed(2)} s)`);
  return { dataset, source, openSeconds };
}

function report(result: StoreResult, folder: string, log: (line: string) => void): void {
  const what = result.unchanged ? 'already stored' : `stored in ${result.seconds.toFixed(1)} s`;
  log(`snapshot ${folder}: ${result.version}, ${result.rows} K-line rows, ${what}`);
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
