// The SIGHUP reload and the dashboard's reload button, one entry point: runs the Reloader, remembers when and why, and shows a running pass's stage.

import type { ReloadOutcome, ReloadProgress } from '../../engine/reload.js';

export interface ReloadEntry {
  /** ISO instants the pass was asked for and finished. */
  started: string;
  finished: string;
  outcome: ReloadOutcome;
  /** The load at server start (recorded by `recordStart`), not a reload. */
  atStart?: boolean;
}

/** What main.ts knows of the load at start: the version it serves and how long getting there took. */
export interface StartLoad {
  version: string;
  /** Seconds from the process's start (or the load's) until the data was open. */
  seconds: number;
  /** When the load began, ms since the epoch (default: `seconds` before now). */
  startedMs?: number;
}

/**
 * Wraps the one Reloader: SIGHUP and the dashboard both call `run`, so the button does
 * exactly what the signal does. A call while a reload runs joins it (the Reloader queues
 * one more pass) and is recorded once.
 */
export class ReloadLog {
  /** The last reload pass since start (null before the first: see `atStart` for the load at start). */
  last: ReloadEntry | null = null;
  /** The last pass whose snapshot was rejected (or failed), kept after later successes. */
  lastRejected: ReloadEntry | null = null;
  /** The load at server start, once main.ts has called `recordStart`. */
  atStart: ReloadEntry | null = null;
  /** Passes by outcome since start (for /metrics; the load at start is not a pass). */
  readonly counts: Record<ReloadOutcome['kind'], number> = { loaded: 0, unchanged: 0, rejected: 0, failed: 0 };
  private readonly recorded = new WeakSet<Promise<ReloadOutcome>>();
  /** The pass `run` is waiting for, and when it was asked for. */
  private pending: Promise<ReloadOutcome> | null = null;
  private runStarted = '';

  /**
   * @param reload the Reloader's `reload`
   * @param progress the Reloader's `progress` (the running pass's stage; null when idle). Without it
   *   the dashboard still sees that a reload runs, but not its stage.
   */
  constructor(
    private readonly reload: () => Promise<ReloadOutcome>,
    private readonly now: () => number = Date.now,
    private readonly progress: () => ReloadProgress | null = () => null,
  ) {}

  /** Records the load at server start: shown as the last load until the first reload. */
  recordStart(load: StartLoad): ReloadEntry {
    const finished = this.now();
    const started = load.startedMs ?? finished - load.seconds * 1000;
    this.atStart = {
      started: new Date(started).toISOString(),
      finished: new Date(finished).toISOString(),
      outcome: { kind: 'loaded', version: load.version, seconds: load.seconds, stages: [] },
      atStart: true,
    };
    return this.atStart;
  }

  /** The last load of any kind: the last reload pass, else the load at start. */
  get lastLoad(): ReloadEntry | null {
    return this.last ?? this.atStart;
  }

  /** The running pass: when it was asked for, its stage and progress (`stage: null` when the Reloader tells none), or null when none runs. */
  running(): ({ started: string | null } & (ReloadProgress | { stage: null })) | null {
    const p = this.progress();
    if (this.pending === null && p === null) return null;
    return { started: this.pending === null ? null : this.runStarted, ...(p ?? { stage: null }) };
  }

  /** Reloads the snapshot folder; resolves with this pass's entry. */
  async run(): Promise<ReloadEntry> {
    const started = new Date(this.now()).toISOString();
    const pending = this.reload();
    if (this.pending !== pending) {
      this.pending = pending;
      this.runStarted = started;
    }
    let outcome: ReloadOutcome;
    try {
      outcome = await pending;
    } finally {
      if (this.pending === pending) this.pending = null;
    }
    const entry: ReloadEntry = { started, finished: new Date(this.now()).toISOString(), outcome };
    if (!this.recorded.has(pending)) {
      this.recorded.add(pending);
      this.last = entry;
      this.counts[outcome.kind]++;
      if (outcome.kind === 'rejected' || outcome.kind === 'failed') this.lastRejected = entry;
    }
    return this.last ?? entry;
  }
}
