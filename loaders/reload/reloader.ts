// A pass of the edition lifecycle (the start's, then each SIGHUP's or the dashboard's): store the
// folder off the serving thread, open, publish; its stages and progress readable while it runs.

import type { Editions, EditionHost } from '../edition/editions.js';
import type { StoreProgress } from '../edition/store-task.js';
import { readCurrent } from '../edition/stored-editions.js';
import { type Progress, type ProgressOutput, startProgress } from '../progress.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';
import {
  RELOAD_STAGES,
  type ReloadOutcome,
  type ReloadProgress,
  type ReloadStage,
  type StageTime,
} from '../../engine/reload.js';

export { RELOAD_STAGES, type ReloadOutcome, type ReloadProgress, type ReloadStage, type StageTime };

export interface ReloadOptions {
  stateDir: string;
  /** The folder given at start (--snapshot), or null: then the stored snapshot's own source. */
  folder: string | null;
  editions: Editions;
  /** This thread's server: where a published edition is swapped in. */
  host: EditionHost;
  log(line: string): void;
  /** Where the start's read progress goes (default: the log, like a reload's, a line every few seconds). */
  startProgressOut?: ProgressOutput;
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
  /** Whether the log was told of the current stage. */
  announced: boolean;
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

  /**
   * The pass a server starts with: stores `folder` (null: opens the stored edition as it is)
   * and publishes it. Unlike a reload it throws what stops it (a rejected snapshot is a
   * SnapshotError: the start ends with `file:line: reason`).
   */
  async start(folder: string | null): Promise<ReloadOutcome> {
    try {
      return (this.last = await this.once(folder, true));
    } finally {
      this.pass = null;
    }
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
    const secondsLeft =
      (p.stage === 'read' || p.stage === 'store') && p.rows > 0 && rate > 0 && p.totalRows > 0
        ? Math.max(0, p.totalRows - p.rows) / rate
        : null;
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
  private enter(stage: ReloadStage): void {
    const p = this.pass!;
    const t = this.now();
    if (p.stage === stage && p.announced) return;
    if (p.stage !== stage) {
      p.done.push({ stage: p.stage, seconds: (t - p.stageStartedMs) / 1000 });
      p.stage = stage;
      p.stageStartedMs = t;
    }
    p.announced = true;
    const index = RELOAD_STAGES.findIndex((s) => s.stage === stage);
    this.options.log(`${this.label}: stage ${index + 1}/${RELOAD_STAGES.length}: ${RELOAD_STAGES[index].label}`);
    this.told();
  }

  private told(): void {
    const hook = this.options.onProgress;
    if (hook !== undefined) hook(this.progress!);
  }

  private heard(message: StoreProgress | { progress: 'open' }): void {
    const p = this.pass;
    if (p === null) return;
    switch (message.progress) {
      case 'plan':
        // The markets to parse are known (the others are stored already): the rows to read, and a progress line while they are.
        return this.count(message.totalRows, 'read');
      case 'store':
        p.lines?.done();
        this.enter('store');
        return this.count(message.totalRows, 'stored');
      case 'rows':
      case 'stored':
        p.rows += message.rows;
        p.lines?.add(message.rows);
        return this.told();
      case 'open':
        p.lines?.done();
        return this.enter('open');
    }
  }

  /** This stage's rows from 0 of `totalRows`, with a progress line (time left) while there are any. */
  private count(totalRows: number, verb: string): void {
    const p = this.pass!;
    p.rows = 0;
    p.totalRows = totalRows;
    p.lines = null;
    if (totalRows > 0) {
      const toLog = { write: (text: string) => this.options.log(text.trimEnd()) };
      p.lines = startProgress(`${this.label}: ${verb}`, totalRows, {
        out: (this.label === 'start' ? this.options.startProgressOut : undefined) ?? toLog,
        now: this.now,
      });
    }
    this.told();
  }

  /** The stages of the pass so far, the current one closed now. */
  private stageTimes(): StageTime[] {
    const p = this.pass!;
    return [...p.done, { stage: p.stage, seconds: (this.now() - p.stageStartedMs) / 1000 }];
  }

  /** One pass over `folder` (by default the one given at start, else the served edition's source); `rethrow`: a failure throws. */
  private async once(folderGiven?: string | null, rethrow = false): Promise<ReloadOutcome> {
    const { stateDir, log, editions } = this.options;
    const label = this.label;
    const started = this.now();
    const seconds = (): number => (this.now() - started) / 1000;
    const served = editions.served?.meta.version ?? null;
    // A pointer that cannot be read (edited by hand) leaves no folder to read: the pass fails below, naming it.
    const folder =
      folderGiven !== undefined
        ? folderGiven
        : (this.options.folder ?? (await readCurrent(stateDir).catch(() => null))?.source ?? null);
    // The pass is at its first stage (`read`, or `open` with no folder) until the store says otherwise.
    this.pass = {
      folder,
      startedMs: started,
      stage: folder === null ? 'open' : 'read',
      stageStartedMs: started,
      rows: 0,
      totalRows: 0,
      done: [],
      lines: null,
      announced: false,
    };
    log(`${label}: reading ${folder ?? '(stored snapshot)'}`);
    this.enter(this.pass.stage);
    try {
      const { store, durable, next } = await editions.prepare(folder, (m) => this.heard(m));
      if (next === null) {
        log(`${label}: unchanged, still serving ${served} (${seconds().toFixed(2)} s)`);
        return { kind: 'unchanged', version: served!, seconds: seconds(), stages: this.stageTimes() };
      }
      this.enter('publish');
      await editions.publish(next, this.options.host);
      const stages = this.stageTimes();
      const what =
        store === null
          ? 'opened'
          : [
              store.parsed.length > 0 ? `parsed ${store.parsed.join(', ')}` : null,
              store.merged.length > 0 ? `merged new rows into ${store.merged.join(', ')}` : null,
            ]
              .filter((x) => x !== null)
              .join(', ') || 'nothing to parse';
      log(
        `${label}: now serving ${next.meta.version} (X-Data-Version), ${next.meta.rows} K-line rows, ${what}, in ${seconds().toFixed(2)} s (${stages.map((s) => `${s.stage} ${s.seconds.toFixed(2)} s`).join(', ')})`,
      );
      this.whenDurable(label, next.meta.version, durable, started);
      return { kind: 'loaded', version: next.meta.version, seconds: seconds(), stages };
    } catch (error) {
      if (rethrow) throw error;
      const stages = this.stageTimes();
      const still = served === null ? 'nothing is served' : `still serving ${served}`;
      if (error instanceof SnapshotError) {
        log(`${label}: snapshot rejected: ${error.message}; ${still}`);
        return { kind: 'rejected', reason: error.message, seconds: seconds(), stages };
      }
      log(`${label}: failed: ${error instanceof Error ? error.message : String(error)}; ${still}`);
      return { kind: 'failed', reason: String(error), seconds: seconds(), stages };
    }
  }

  /**
   * A pass's edition is served as soon as it is written; it is on disk (its parts forced, the
   * pointer moved) a moment later: a failure then (a full disk) is logged, the edition served from
   * memory while the state folder still names the one before.
   */
  private whenDurable(label: string, version: string, durable: Promise<void>, started: number): void {
    durable.then(
      () => {},
      (error: unknown) =>
        this.options.log(
          `${label}: ${version} is served but could not be made durable (${error instanceof Error ? error.message : String(error)}); the state folder still names the edition before it (${((this.now() - started) / 1000).toFixed(2)} s after the ${label} began)`,
        ),
    );
  }

  /** `start` for the pass a server starts with, `reload` after it. */
  private get label(): string {
    return this.options.editions.served === null ? 'start' : 'reload';
  }
}
