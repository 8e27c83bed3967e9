// Per-key usage counts in LMDB, one entry per day and key: `<YYYY-MM-DD>/<id>` → [rows, requests], plus [rate-limited, quota-exhausted] once the key was refused 429 that day.

import type { Database, RootDatabase } from 'lmdb';

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
}

type Entry = [number, number] | [number, number, number, number];

function fromEntry(value: Entry): StoredUsage {
  return value.length > 2 ? { used: value[0], requests: value[1], rateLimited: value[2], quotaExhausted: value[3] } : { used: value[0], requests: value[1] };
}

/** Usage counters. Writes are absolute counts, so a lost or repeated write never double-counts. */
export class UsageStore {
  private readonly db: Database<Entry, string>;

  constructor(env: RootDatabase) {
    this.db = env.openDB<Entry, string>({ name: 'usage' });
  }

  /** Queues one key's counts for `day`; puts of one event turn commit in one transaction. */
  put(day: string, id: string, used: number, requests: number, rateLimited = 0, quotaExhausted = 0): Promise<boolean> {
    const entry: Entry = rateLimited === 0 && quotaExhausted === 0 ? [used, requests] : [used, requests, rateLimited, quotaExhausted];
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

  /** The counts of one key for `day`, or zeros. */
  get(day: string, id: string): StoredUsage {
    const v = this.db.get(`${day}/${id}`);
    return v === undefined ? { used: 0, requests: 0 } : fromEntry(v);
  }

  /** Removes every day before `day` (a `YYYY-MM-DD`); returns how many entries went. */
  async pruneBefore(day: string): Promise<number> {
    const old = [...this.db.getKeys({ end: day })];
    if (old.length === 0) return 0;
    await this.db.transaction(() => {
      for (const k of old) this.db.remove(k);
    });
    return old.length;
  }
}
