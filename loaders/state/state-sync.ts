// Keeps a running guard and the state store in step, off the request path: key reloads, usage flushes, pruning.

import { performance } from 'node:perf_hooks';
import type { KeyRecord } from './key-store.js';
import type { StateStore } from './state-store.js';
import { committed, refuseWithoutRoom, StateWriteError } from './state-write.js';
import type { StoredUsage } from './usage-store.js';

/** What the sync needs of the guard (transport/guard's Guard has this shape; main.ts joins them). */
export interface GuardPort {
  /** Takes the key table; throws after taking it to report keys it left out. */
  setKeys(records: Iterable<KeyRecord>): void;
  dayLabel(nowMs: number): string;
  /** Sets a key's counts of the day at `nowMs` from storage (at start). */
  seedUsage(id: string, counts: StoredUsage, nowMs: number): boolean;
  /** Each changed key's counts of a day (a day that ended first, then today's), its last use (epoch ms, 0: none) and the rows it exported that day. */
  drainDirty(
    visit: (
      id: string,
      day: string,
      used: number,
      requests: number,
      rateLimited: number,
      quotaExhausted: number,
      lastUsedMs: number,
      exported: number,
    ) => void,
  ): number;
}

export interface SyncOptions {
  /** Period of key checks and usage flushes, ms (default 1000: `kill -9` loses at most this much). */
  intervalMs?: number;
  /** Clock, ms since the epoch (default Date.now). */
  now?: () => number;
  /** Days of usage kept before the current one; older entries are pruned at start and on each new day (default 31). */
  keepDays?: number;
  /** Called with a failed flush or reload; the sync keeps running (default: console.error). */
  onError?: (err: unknown) => void;
  /**
   * Told when usage stops being durable (a flush's commit failed: `error` says why; the counts are
   * held in memory and written again at each round) and when it is again (`error` null).
   */
  onDurable?: (durable: boolean, error: StateWriteError | null) => void;
}

/** Figures of the flushes so far (the bench reports them). */
export interface SyncStats {
  flushes: number;
  entries: number;
  /** Longest stretch a flush held the event loop (the drain, or one slice of puts), ms. */
  maxSyncMs: number;
  /** Longest time from a flush's drain to the commit of its last put, ms. */
  maxFlushMs: number;
  keyReloads: number;
}

const MS_PER_DAY = 86_400_000;
/** Usage rows queued per event turn in a flush (each a put, most with a last-use put): about half a millisecond of main-thread work. */
const SLICE = 250;

interface UsageRows {
  ids: string[];
  days: string[];
  used: number[];
  requests: number[];
  rateLimited: number[];
  quotaExhausted: number[];
  lastUsed: number[];
  exported: number[];
}

/** One key's counts of one day, as held after a failed write. */
interface UsageRow {
  id: string;
  day: string;
  used: number;
  requests: number;
  rateLimited: number;
  quotaExhausted: number;
  lastUsed: number;
  exported: number;
}

/**
 * Loads keys and today's usage into the guard, then every `intervalMs` (an unref'd timer)
 * reloads the keys when the keys command changed them and writes changed usage as async
 * puts. `close()` writes the last counts and waits until they are on disk: call it after
 * the server stopped serving, then close the store.
 */
export class StateSync {
  readonly stats: SyncStats = { flushes: 0, entries: 0, maxSyncMs: 0, maxFlushMs: 0, keyReloads: 0 };
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;
  private readonly onError: (err: unknown) => void;
  private version: number;
  private pending: Promise<void> = Promise.resolve();
  private closing: Promise<void> | undefined;
  /** The day of the last prune: a new day prunes again (a server may run for months). */
  private prunedFor = '';
  private pruning: Promise<number> = Promise.resolve(0);
  private readonly keepDays: number;
  private readonly onDurable: (durable: boolean, error: StateWriteError | null) => void;
  /** Rows whose write failed (a full disk), by `<day>\n<id>`: written again, before newer rows of the same key and day, at each round. */
  private readonly held = new Map<string, UsageRow>();
  private durableNow = true;

  private constructor(
    private readonly store: StateStore,
    private readonly guard: GuardPort,
    opts: SyncOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.keepDays = opts.keepDays ?? 31;
    this.onError = opts.onError ?? ((err) => console.error('state sync:', err));
    this.onDurable = opts.onDurable ?? (() => {});
    this.version = store.keys.version();
    this.applyKeys();
    const t = this.now();
    for (const [id, u] of store.usage.readDay(guard.dayLabel(t))) guard.seedUsage(id, u, t);
    this.timer = setInterval(() => this.tick(), opts.intervalMs ?? 1000);
    this.timer.unref(); // never what keeps the process alive
  }

  /** Seeds `guard` from `store` and starts the timer. Prunes usage older than `keepDays` in the background. */
  static start(store: StateStore, guard: GuardPort, opts: SyncOptions = {}): StateSync {
    const sync = new StateSync(store, guard, opts);
    void sync.pruneIfNewDay();
    return sync;
  }

  /**
   * Removes the usage of days more than `keepDays` before the current one, once per day (at
   * start, then at the first round of each new day). Resolves to the entries today's prune
   * removed (the one started now, or earlier today).
   */
  pruneIfNewDay(): Promise<number> {
    const today = this.guard.dayLabel(this.now());
    if (today === this.prunedFor) return this.pruning;
    this.prunedFor = today;
    const cutoff = new Date(Date.parse(today) - this.keepDays * MS_PER_DAY).toISOString().slice(0, 10);
    this.pruning = this.store.usage.pruneBefore(cutoff).catch((err) => (this.onError(err), 0));
    return this.pruning;
  }

  /** One round: reload keys if they changed, prune on a new day, then flush. The timer calls it; tests may too. */
  tick(): Promise<void> {
    try {
      this.reloadKeys();
    } catch (err) {
      this.onError(err);
    }
    void this.pruneIfNewDay();
    return this.flush();
  }

  /** Reloads the key table when its change counter moved (the keys command bumps it). */
  reloadKeys(): boolean {
    this.store.refresh(); // see commits of other processes now, not at lmdb-js's next reset
    const v = this.store.keys.version();
    if (v === this.version) return false;
    this.version = v;
    this.applyKeys();
    this.stats.keyReloads++;
    return true;
  }

  /**
   * Hands the stored key table to the guard. A guard that had to leave keys out (no slot
   * left, a plan not in force) still took the rest and throws to say so: reported here, so
   * whoever asked for the reload (the timer, the dashboard, the key mirror) carries on.
   */
  private applyKeys(): void {
    try {
      this.guard.setKeys(this.store.keys.list());
    } catch (err) {
      this.onError(err);
    }
  }

  /**
   * Takes every changed key's counts from the guard and writes them as async puts, in
   * slices of {@link SLICE} per event turn: lmdb-js encodes each put on the main thread
   * (~1–1.5 µs), so 10,000 keys in one turn would stall the loop ~15 ms. Slices commit as
   * lmdb-js batches them; the counts are absolute, so a flush cut short by a crash leaves
   * each key at an older count, never a wrong one. Flushes run one after another, so a
   * later count is never overwritten by an earlier one.
   */
  flush(): Promise<void> {
    const t0 = performance.now();
    const rows: UsageRows = {
      ids: [],
      days: [],
      used: [],
      requests: [],
      rateLimited: [],
      quotaExhausted: [],
      lastUsed: [],
      exported: [],
    };
    // Parallel arrays, not an object per key: less for the young-generation GC to copy.
    this.guard.drainDirty((id, day, used, requests, rateLimited, quotaExhausted, lastUsedMs, exported) => {
      rows.ids.push(id);
      rows.days.push(day);
      rows.used.push(used);
      rows.requests.push(requests);
      rows.rateLimited.push(rateLimited);
      rows.quotaExhausted.push(quotaExhausted);
      rows.lastUsed.push(lastUsedMs);
      rows.exported.push(exported);
    });
    this.noteSync(performance.now() - t0);
    if (rows.ids.length === 0 && this.held.size === 0) return this.pending;
    this.pending = this.pending.then(() => this.writeOrHold(rows, t0)).catch((err) => this.onError(err));
    return this.pending;
  }

  /** True unless counts are held in memory because the state folder refused their write (a full disk). */
  get durable(): boolean {
    return this.durableNow;
  }

  /**
   * Writes `rows` after the rows held from a failed write (newer counts of the same key and day
   * replace them). Should the commit fail, every one of them is held for the next round: counts
   * are absolute, so writing them late (or twice) is exact. Flushes run one after another, so the
   * held rows are always older than `rows`.
   */
  private async writeOrHold(drained: UsageRows, t0: number): Promise<void> {
    let rows = drained;
    if (this.held.size > 0) {
      for (let i = 0; i < drained.ids.length; i++)
        this.held.set(`${drained.days[i]}\n${drained.ids[i]}`, {
          id: drained.ids[i],
          day: drained.days[i],
          used: drained.used[i],
          requests: drained.requests[i],
          rateLimited: drained.rateLimited[i],
          quotaExhausted: drained.quotaExhausted[i],
          lastUsed: drained.lastUsed[i],
          exported: drained.exported[i],
        });
      rows = {
        ids: [],
        days: [],
        used: [],
        requests: [],
        rateLimited: [],
        quotaExhausted: [],
        lastUsed: [],
        exported: [],
      };
      for (const r of this.held.values()) {
        rows.ids.push(r.id);
        rows.days.push(r.day);
        rows.used.push(r.used);
        rows.requests.push(r.requests);
        rows.rateLimited.push(r.rateLimited);
        rows.quotaExhausted.push(r.quotaExhausted);
        rows.lastUsed.push(r.lastUsed);
        rows.exported.push(r.exported);
      }
      this.held.clear();
    }
    try {
      await this.write(rows, t0);
    } catch (error) {
      for (let i = 0; i < rows.ids.length; i++)
        this.held.set(`${rows.days[i]}\n${rows.ids[i]}`, {
          id: rows.ids[i],
          day: rows.days[i],
          used: rows.used[i],
          requests: rows.requests[i],
          rateLimited: rows.rateLimited[i],
          quotaExhausted: rows.quotaExhausted[i],
          lastUsed: rows.lastUsed[i],
          exported: rows.exported[i],
        });
      if (!(error instanceof StateWriteError)) throw error;
      if (this.durableNow) (this.durableNow = false), this.onDurable(false, error);
      return;
    }
    if (!this.durableNow) (this.durableNow = true), this.onDurable(true, null);
  }

  private async write(rows: UsageRows, t0: number): Promise<void> {
    const n = rows.ids.length;
    const { usage, path } = this.store;
    refuseWithoutRoom('usage counts', path);
    // Retrying after a failed write: one row first, so a disk still full costs one failed commit a round, not one per slice.
    if (!this.durableNow && n > 0)
      await committed(
        usage.put(
          rows.days[0],
          rows.ids[0],
          rows.used[0],
          rows.requests[0],
          rows.rateLimited[0],
          rows.quotaExhausted[0],
          rows.exported[0],
        ),
        'usage counts',
        path,
      );
    // Each commit's outcome is taken as the commit is queued: one may fail while the flush yields between slices, and a
    // rejection with no handler by then would end the process. lmdb-js hands the puts of one commit one promise.
    const queued = new Set<Promise<boolean>>();
    const outcomes: Promise<unknown>[] = [];
    const hold = (write: Promise<boolean>): void => {
      if (queued.has(write)) return;
      queued.add(write);
      // committed rejects with a StateWriteError, never null.
      outcomes.push(
        committed(write, 'usage counts', path).then(
          () => null,
          (error: unknown) => error,
        ),
      );
    };
    for (let i = 0; i < n; i += SLICE) {
      if (i > 0) await new Promise<void>((r) => setImmediate(r));
      const s0 = performance.now();
      for (let j = i; j < n && j < i + SLICE; j++) {
        const id = rows.ids[j];
        hold(
          usage.put(
            rows.days[j],
            id,
            rows.used[j],
            rows.requests[j],
            rows.rateLimited[j],
            rows.quotaExhausted[j],
            rows.exported[j],
          ),
        );
        // 0: no request since start (the counts changed otherwise); a key's second row (a day that ended, then today) repeats its last use.
        if (rows.lastUsed[j] > 0 && !(j > 0 && rows.ids[j - 1] === id)) hold(usage.putLastUsed(id, rows.lastUsed[j]));
      }
      this.noteSync(performance.now() - s0);
    }
    const failed = (await Promise.all(outcomes)).find((error) => error !== null);
    if (failed !== undefined) throw failed;
    const s = this.stats;
    s.flushes++;
    s.entries += n;
    s.maxFlushMs = Math.max(s.maxFlushMs, performance.now() - t0);
  }

  /** Zeroes the figures (benches measure a steady state after a warm-up). */
  resetStats(): void {
    Object.assign(this.stats, { flushes: 0, entries: 0, maxSyncMs: 0, maxFlushMs: 0, keyReloads: 0 });
  }

  private noteSync(ms: number): void {
    if (ms > this.stats.maxSyncMs) this.stats.maxSyncMs = ms;
  }

  /**
   * Stops the timer, writes the last counts and waits until they are on disk. Counts the state
   * folder still refuses (a full disk) are reported to `onError`: they are lost with the process.
   * Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.timer);
      await this.flush();
      if (this.held.size > 0)
        this.onError(
          new Error(
            `usage: ${this.held.size} counts could not be written before the stop (the state folder refused them)`,
          ),
        );
      await this.store.flushed();
    })();
    return this.closing;
  }
}
