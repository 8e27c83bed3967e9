// The SIGHUP reload and the dashboard's reload button, one entry point: runs the Reloader and remembers when and why.

/** What loaders/reload's Reloader answers (its ReloadOutcome has this shape). */
export type ReloadOutcomeLike =
  | { kind: 'loaded' | 'unchanged'; version: string; seconds: number }
  | { kind: 'rejected' | 'failed'; reason: string; seconds: number };

export interface ReloadEntry {
  /** ISO instants the pass was asked for and finished. */
  started: string;
  finished: string;
  outcome: ReloadOutcomeLike;
}

/**
 * Wraps the one Reloader: SIGHUP and the dashboard both call `run`, so the button does
 * exactly what the signal does. A call while a reload runs joins it (the Reloader queues
 * one more pass) and is recorded once.
 */
export class ReloadLog {
  last: ReloadEntry | null = null;
  /** The last pass whose snapshot was rejected (or failed), kept after later successes. */
  lastRejected: ReloadEntry | null = null;
  /** Passes by outcome since start (for /metrics). */
  readonly counts: Record<ReloadOutcomeLike['kind'], number> = { loaded: 0, unchanged: 0, rejected: 0, failed: 0 };
  private readonly recorded = new WeakSet<Promise<ReloadOutcomeLike>>();

  constructor(private readonly reload: () => Promise<ReloadOutcomeLike>, private readonly now: () => number = Date.now) {}

  /** Reloads the snapshot folder; resolves with this pass's entry. */
  async run(): Promise<ReloadEntry> {
    const started = new Date(this.now()).toISOString();
    const pending = this.reload();
    const outcome = await pending;
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
