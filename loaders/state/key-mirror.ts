// Keeps this instance's key table and the one every instance shares in Redis in step (REDIS_URL).

import type { KeyRecord } from './key-store.js';
import { encodeRecord, type RedisKeyTable } from './redis-key-table.js';
import type { StateStore } from './state-store.js';

export interface MirrorOptions {
  /** Period of the checks, ms (default 250: a change reaches every instance well within a second). */
  intervalMs?: number;
  /** Called after a round changed keys: pushed from the state folder, or written to it from Redis (main.ts reloads the guard's keys). */
  onChanged?: () => void;
  /** A failed round (Redis down); the mirror keeps trying (default: console.error). */
  onError?: (err: unknown) => void;
}

/**
 * Every `intervalMs`: records changed in this state folder (the dashboard, the keys command)
 * are pushed to Redis; records changed in Redis (another instance's) are written to the
 * state folder, where the state sync hands them to the guard. At start Redis wins for the
 * ids it holds and ids only this folder knows are pushed, so a first instance seeds Redis.
 */
export class KeyMirror {
  private readonly timer: NodeJS.Timeout;
  /** Each id's record as this folder last held it: what is already in step. */
  private readonly inStep = new Map<string, string>();
  private localVersion = -1;
  private seenRev = -1;
  private running: Promise<void> = Promise.resolve();
  private readonly onChanged: () => void;
  private readonly onError: (err: unknown) => void;

  private constructor(
    private readonly store: StateStore,
    private readonly table: RedisKeyTable,
    opts: MirrorOptions,
  ) {
    this.onChanged = opts.onChanged ?? (() => {});
    this.onError = opts.onError ?? ((err) => console.error('key mirror:', err));
    this.timer = setInterval(() => void this.tick(), opts.intervalMs ?? 250);
    this.timer.unref();
  }

  /** Brings both tables in step once (throws when Redis fails), then keeps them so. */
  static async start(store: StateStore, table: RedisKeyTable, opts: MirrorOptions = {}): Promise<KeyMirror> {
    const mirror = new KeyMirror(store, table, opts);
    try {
      await mirror.pull(false); // the state sync starting next hands the folder's keys to the guard
      const shared = new Set((await table.list()).map((r) => r.id));
      const version = store.keys.version();
      const local = store.keys.list();
      await table.put(local.filter((r) => !shared.has(r.id)));
      mirror.markInStep(local, version);
    } catch (error) {
      mirror.close();
      throw error;
    }
    return mirror;
  }

  /** One round, never two at once: push local changes, then pull Redis's. The timer calls it; tests may too. */
  tick(): Promise<void> {
    this.running = this.running.then(async () => {
      try {
        await this.push();
        await this.pull();
      } catch (error) {
        this.onError(error);
      }
    });
    return this.running;
  }

  /** Pushes records that differ from what is in step; marks them in step only once Redis took them. */
  private async push(): Promise<void> {
    this.store.refresh();
    const version = this.store.keys.version();
    if (version === this.localVersion) return;
    const local = this.store.keys.list();
    const changed = local.filter((r) => this.inStep.get(r.id) !== encodeRecord(r));
    await this.table.put(changed);
    this.markInStep(local, version);
    if (changed.length > 0) this.onChanged(); // the guard here learns of it now too, not at the state sync's next second
  }

  /** When Redis's counter moved, writes the records changed there since last in step into the state folder. */
  private async pull(notify = true): Promise<void> {
    const rev = await this.table.rev();
    if (rev === this.seenRev) return;
    if (rev < this.seenRev) {
      // Redis lost its data (a restart without persistence): give it back every key this folder holds.
      await this.table.put(this.store.keys.list());
      this.seenRev = -1;
      return;
    }
    const shared = await this.table.list();
    let wrote = 0;
    for (const r of shared) {
      const text = encodeRecord(r);
      // Unchanged in Redis since last in step: a difference here is a local change still to push.
      if (this.inStep.get(r.id) === text) continue;
      // In step before the write: the write bumps the folder's counter, and push must not send it back.
      this.inStep.set(r.id, text);
      const here = this.store.keys.get(r.id);
      if (here === undefined || encodeRecord(here) !== text) await this.store.keys.put(r), wrote++;
    }
    this.seenRev = rev;
    if (wrote > 0 && notify) this.onChanged();
  }

  private markInStep(records: readonly KeyRecord[], version: number): void {
    for (const r of records) this.inStep.set(r.id, encodeRecord(r));
    this.localVersion = version;
  }

  /** Stops the timer (a round under way finishes). */
  close(): Promise<void> {
    clearInterval(this.timer);
    return this.running;
  }
}
