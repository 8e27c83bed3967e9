// SIGHUP reload: re-read the snapshot folder off the serving thread, swap one reference; its stages and progress readable while it runs.

import type { Dataset } from '../../engine/dataset/dataset.js';
import { readCurrent } from '../lmdb/snapshot-store.js';
import { type Progress, startProgress } from '../progress.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';
import { RELOAD_STAGES, type ReloadOutcome, type ReloadProgress, type ReloadStage, type StageTime } from '../../engine/reload.js';
import { type StoreAndOpenProgress, storeAndOpen } from './store-and-open.js';

export { RELOAD_STAGES, type ReloadOutcome, type ReloadProgress, type ReloadStage, type StageTime };

export interface ReloadOptions {
  stateDir: string;
  /** The folder given at start (--snapshot), or null: then the stored snapshot's own source. */
  folder: string | null;
  /** The Dataset served now, and how to replace it. */
  current(): Dataset;
  swap(next: Dataset): void;
  log(line: string): void;
  /** Told each time the pass moves on (a new stage, more rows read); `progress` reads the same. */
  onProgress?: (progress: ReloadProgress) => void;
  /** Milliseconds clock of the stage timings (default performance.now). */
  now?: () => number;
}

/** The mutable state of the running pass. */
interface Pass {
  folder: string | null;
  startedMs: number;
  stage: ReloadStage;
  stageStartedMs: number;
  rows: number;
  totalRows: number;
  done: StageTime[];
  /** The log's progress line (a line every few seconds off a terminal, the summary at the end). */
  lines: Progress | null;
}

/**
 * One reload at a time: a signal during a reload asks for one more pass after it (the
 * folder may have changed again), never for two running side by side.
 */
export class Reloader {
  private running: Promise<ReloadOutcome> | null = null;
  private again = false;
  private pass: Pass | null = null;
  private readonly now: () => number;
  /** What the last pass did (shown by operators' tools). */
  last: ReloadOutcome | null = null;

  constructor(private readonly options: ReloadOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Starts a reload, or queues one after the running one; resolves with the latest outcome. */
  reload(): Promise<ReloadOutcome> {
    if (this.running !== null) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => (this.running = null));
    return this.running;
  }

  /** The running pass's stage and progress, or null when no reload runs. */
  get progress(): ReloadProgress | null {
    const p = this.pass;
    if (p === null) return null;
    const t = this.now();
    const index = RELOAD_STAGES.findIndex((s) => s.stage === p.stage);
    const stageSeconds = (t - p.stageStartedMs) / 1000;
    const rate = stageSeconds > 0 ? p.rows / stageSeconds : 0;
    const secondsLeft = p.stage === 'read' && p.rows > 0 && rate > 0 && p.totalRows > 0 ? Math.max(0, p.totalRows - p.rows) / rate : null;
    return {
      stage: p.stage,
      step: index + 1,
      steps: RELOAD_STAGES.length,
      label: RELOAD_STAGES[index].label,
      folder: p.folder,
      rows: p.rows,
      totalRows: p.totalRows,
      seconds: (t - p.startedMs) / 1000,
      stageSeconds,
      secondsLeft,
      done: p.done.slice(),
    };
  }

  private async loop(): Promise<ReloadOutcome> {
    let outcome: ReloadOutcome;
    do {
      this.again = false;
      try {
        outcome = await this.once();
      } finally {
        this.pass = null;
      }
      this.last = outcome;
    } while (this.again);
    return outcome;
  }

  /** Moves the pass to `stage`, timing the one before; tells the log and `onProgress`. */
  private enter(stage: ReloadStage, totalRows = 0): void {
    const p = this.pass!;
    const t = this.now();
    if (p.stage !== stage) {
      p.done.push({ stage: p.stage, seconds: (t - p.stageStartedMs) / 1000 });
      p.stage = stage;
      p.stageStartedMs = t;
    }
    if (stage === 'read') {
      p.totalRows = totalRows;
      p.lines = startProgress('reload', totalRows, { out: { write: (text) => this.options.log(text.trimEnd()) }, now: this.now });
    }
    const index = RELOAD_STAGES.findIndex((s) => s.stage === stage);
    this.options.log(`reload: stage ${index + 1}/${RELOAD_STAGES.length}: ${RELOAD_STAGES[index].label}`);
    this.told();
  }

  private told(): void {
    const hook = this.options.onProgress;
    if (hook !== undefined) hook(this.progress!);
  }

  private heard(message: StoreAndOpenProgress): void {
    const p = this.pass;
    if (p === null) return;
    switch (message.progress) {
      case 'read':
        return this.enter('read', message.totalRows);
      case 'rows':
        p.rows += message.rows;
        p.lines?.add(message.rows);
        return this.told();
      case 'open':
        return this.enter('open');
      case 'assemble':
        return this.enter('assemble');
    }
  }

  /** The stages of the pass so far, the current one closed now. */
  private stageTimes(): StageTime[] {
    const p = this.pass!;
    return [...p.done, { stage: p.stage, seconds: (this.now() - p.stageStartedMs) / 1000 }];
  }

  private async once(): Promise<ReloadOutcome> {
    const { stateDir, log } = this.options;
    const started = this.now();
    const seconds = (): number => (this.now() - started) / 1000;
    const served = this.options.current();
    const folder = this.options.folder ?? (await readCurrent(stateDir))?.source ?? null;
    // Until the worker says otherwise, the pass is at its first stage (`read`, or `open` with no folder).
    this.pass = { folder, startedMs: started, stage: folder === null ? 'open' : 'read', stageStartedMs: started, rows: 0, totalRows: 0, done: [], lines: null };
    log(`reload: reading ${folder ?? '(stored snapshot)'}`);
    try {
      const result = await storeAndOpen({ folder, stateDir, servedVersion: served.version }, (m) => this.heard(m));
      if (result.store !== null && !result.store.skippedRead) this.pass.lines?.done();
      const stages = this.stageTimes();
      if (result.dataset === null) {
        log(`reload: unchanged, still serving ${served.version} (${seconds().toFixed(2)} s)`);
        return { kind: 'unchanged', version: served.version, seconds: seconds(), stages };
      }
      this.options.swap(result.dataset);
      const rows = result.store?.rows ?? 0;
      log(`reload: now serving ${result.dataset.version} (X-Data-Version), ${rows} K-line rows, in ${seconds().toFixed(2)} s (${stages.map((s) => `${s.stage} ${s.seconds.toFixed(2)} s`).join(', ')})`);
      return { kind: 'loaded', version: result.dataset.version, seconds: seconds(), stages };
    } catch (error) {
      const stages = this.stageTimes();
      if (error instanceof SnapshotError) {
        log(`reload: snapshot rejected: ${error.message}; still serving ${served.version}`);
        return { kind: 'rejected', reason: error.message, seconds: seconds(), stages };
      }
      log(`reload: failed: ${error instanceof Error ? error.message : String(error)}; still serving ${served.version}`);
      return { kind: 'failed', reason: String(error), seconds: seconds(), stages };
    }
  }
}
