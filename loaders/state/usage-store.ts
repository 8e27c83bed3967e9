// Per-key usage counts in LMDB, one entry per day and key: `<YYYY-MM-DD>/<id>` → [rows, requests], plus [rate-limited, quota-exhausted] once the key was refused 429 that day, plus [rows exported] once it exported; and each key's last use.

import type { Database, RootDatabase } from 'lmdb';
import { committed, refuseWithoutRoom } from './state-write.js';

/** Stored counts of one key for one day. */
export interface StoredUsage {
  readonly used: number;
  readonly requests: number;
  /**
   * 429 refusals (rate_limited, quota_exhausted). Present only on entries that have any:
   * a day without refusals is stored as the two-number entry of before, and reads as such.
   */
  readonly rateLimited?: number;
  readonly quotaExhausted?: number;
  /** Rows exported (the export allowance's count). Present only on entries of a day the key exported. */
  readonly exported?: number;
}

type Entry = [number, number] | [number, number, number, number] | [number, number, number, number, number];

function fromEntry(value: Entry): StoredUsage {
  if (value.length === 5)
    return { used: value[0], requests: value[1], rateLimited: value[2], quotaExhausted: value[3], exported: value[4] };
  return value.length > 2
    ? { used: value[0], requests: value[1], rateLimited: value[2], quotaExhausted: value[3] }
    : { used: value[0], requests: value[1] };
}

/**
 * Usage counters. Writes are absolute counts, so a lost or repeated write never double-counts.
 * The day entries are also the keys' daily history (the dashboard reads the last 7 days with
 * `readDays`); db `last-used` holds `<id>` → epoch ms of the key's last authenticated request,
 * kept as long as the key (a key unused for months still shows when it was last used).
 */
export class UsageStore {
  private readonly db: Database<Entry, string>;
  private readonly lastUsedDb: Database<number, string>;

  constructor(
    env: RootDatabase,
    /** The environment's folder (named in a failed write's error). */
    readonly path: string,
  ) {
    this.db = env.openDB<Entry, string>({ name: 'usage' });
    this.lastUsedDb = env.openDB<number, string>({ name: 'last-used' });
  }

  /**
   * Queues one key's counts for `day`; puts queued together commit together. The promise is
   * lmdb-js's (shared by the puts of one commit): pass it to `committed` (state-write.ts), which
   * turns a failed commit into a StateWriteError.
   */
  put(
    day: string,
    id: string,
    used: number,
    requests: number,
    rateLimited = 0,
    quotaExhausted = 0,
    exported = 0,
  ): Promise<boolean> {
    // The shortest entry that holds the counts: older entries read the same way.
    const entry: Entry =
      exported !== 0
        ? [used, requests, rateLimited, quotaExhausted, exported]
        : rateLimited === 0 && quotaExhausted === 0
          ? [used, requests]
          : [used, requests, rateLimited, quotaExhausted];
    return this.db.put(`${day}/${id}`, entry);
  }

  /** Every key's counts for `day`, by key id. */
  readDay(day: string): Map<string, StoredUsage> {
    const out = new Map<string, StoredUsage>();
    // '0' is the character after '/', so the range holds exactly this day's entries.
    for (const { key, value } of this.db.getRange({ start: `${day}/`, end: `${day}0` })) {
      out.set(key.slice(day.length + 1), fromEntry(value));
    }
    return out;
  }

  /**
   * Every key's counts of each day from `first` to `last` (`YYYY-MM-DD`, both included), by
   * day then key id: one range read, as the entries are ordered by day. Days without an entry
   * are absent.
   */
  readDays(first: string, last: string): Map<string, Map<string, StoredUsage>> {
    const out = new Map<string, Map<string, StoredUsage>>();
    for (const { key, value } of this.db.getRange({ start: `${first}/`, end: `${last}0` })) {
      const slash = key.indexOf('/');
      const day = key.slice(0, slash);
      let ofDay = out.get(day);
      if (ofDay === undefined) out.set(day, (ofDay = new Map()));
      ofDay.set(key.slice(slash + 1), fromEntry(value));
    }
    return out;
  }

  /** Queues the epoch ms of key `id`'s last authenticated request (absolute, like the counts); as `put`, for `committed`. */
  putLastUsed(id: string, ms: number): Promise<boolean> {
    return this.lastUsedDb.put(id, ms);
  }

  /** Every key's last use (epoch ms) as stored; a key never used since this was kept is absent. */
  readLastUsed(): Map<string, number> {
    const out = new Map<string, number>();
    for (const { key, value } of this.lastUsedDb.getRange()) out.set(key, value);
    return out;
  }

  /** The counts of one key for `day`, or zeros. */
  get(day: string, id: string): StoredUsage {
    const v = this.db.get(`${day}/${id}`);
    return v === undefined ? { used: 0, requests: 0 } : fromEntry(v);
  }

  /**
   * Removes every day before `day` (a `YYYY-MM-DD`); returns how many entries went. Plain removes,
   * not a transaction: lmdb-js's asynchronous transaction never settles when its commit fails
   * (a full disk); a prune cut short is finished by the next one.
   */
  async pruneBefore(day: string): Promise<number> {
    const old = [...this.db.getKeys({ end: day })];
    if (old.length === 0) return 0;
    refuseWithoutRoom('the usage prune', this.path);
    const commits = new Set(old.map((k) => this.db.remove(k)));
    await Promise.all([...commits].map((c) => committed(c, 'the usage prune', this.path)));
    return old.length;
  }
}
