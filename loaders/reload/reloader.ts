// SIGHUP reload: re-read the snapshot folder off the serving thread, swap one reference.

import type { Dataset } from '../../engine/dataset/dataset.js';
import { readCurrent } from '../lmdb/snapshot-store.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';
import { storeAndOpen } from './store-and-open.js';

export interface ReloadOptions {
  stateDir: string;
  /** The folder given at start (--snapshot), or null: then the stored snapshot's own source. */
  folder: string | null;
  /** The Dataset served now, and how to replace it. */
  current(): Dataset;
  swap(next: Dataset): void;
  log(line: string): void;
}

export type ReloadOutcome =
  | { kind: 'loaded'; version: string; seconds: number }
  | { kind: 'unchanged'; version: string; seconds: number }
  | { kind: 'rejected'; reason: string; seconds: number }
  | { kind: 'failed'; reason: string; seconds: number };

/**
 * One reload at a time: a signal during a reload asks for one more pass after it (the
 * folder may have changed again), never for two running side by side.
 */
export class Reloader {
  private running: Promise<ReloadOutcome> | null = null;
  private again = false;
  /** What the last pass did (shown by operators' tools). */
  last: ReloadOutcome | null = null;

  constructor(private readonly options: ReloadOptions) {}

  /** Starts a reload, or queues one after the running one; resolves with the latest outcome. */
  reload(): Promise<ReloadOutcome> {
    if (this.running !== null) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => (this.running = null));
    return this.running;
  }

  private async loop(): Promise<ReloadOutcome> {
    let outcome: ReloadOutcome;
    do {
      this.again = false;
      outcome = await this.once();
      this.last = outcome;
    } while (this.again);
    return outcome;
  }

  private async once(): Promise<ReloadOutcome> {
    const { stateDir, log } = this.options;
    const started = performance.now();
    const seconds = (): number => (performance.now() - started) / 1000;
    const served = this.options.current();
    const folder = this.options.folder ?? (await readCurrent(stateDir))?.source ?? null;
    log(`reload: reading ${folder ?? '(stored snapshot)'}`);
    try {
      const result = await storeAndOpen({ folder, stateDir, servedVersion: served.version });
      if (result.dataset === null) {
        log(`reload: unchanged, still serving ${served.version} (${seconds().toFixed(2)} s)`);
        return { kind: 'unchanged', version: served.version, seconds: seconds() };
      }
      this.options.swap(result.dataset);
      const rows = result.store?.rows ?? 0;
      log(`reload: now serving ${result.dataset.version} (X-Data-Version), ${rows} K-line rows, in ${seconds().toFixed(2)} s`);
      return { kind: 'loaded', version: result.dataset.version, seconds: seconds() };
    } catch (error) {
      if (error instanceof SnapshotError) {
        log(`reload: snapshot rejected: ${error.message}; still serving ${served.version}`);
        return { kind: 'rejected', reason: error.message, seconds: seconds() };
      }
      log(`reload: failed: ${error instanceof Error ? error.message : String(error)}; still serving ${served.version}`);
      return { kind: 'failed', reason: String(error), seconds: seconds() };
    }
  }
}
