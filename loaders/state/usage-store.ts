// Per-key usage counts in LMDB, one entry per day and key: `<YYYY-MM-DD>/<id>` → [rows, requests].

import type { Database, RootDatabase } from 'lmdb';

/** Stored counts of one key for one day. */
export interface StoredUsage {
  readonly used: number;
  readonly requests: number;
}

/** Usage counters. Writes are absolute counts, so a lost or repeated write never double-counts. */
export class UsageStore {
  private readonly db: Database<[number, number], string>;

  constructor(env: RootDatabase) {
    this.db = env.openDB<[number, number], string>({ name: 'usage' });
  }

  /** Queues one key's counts for `day`; puts of one event turn commit in one transaction. */
  put(day: string, id: string, used: number, requests: number): Promise<boolean> {
    return this.db.put(`${day}/${id}`, [used, requests]);
  }

  /** Every key's counts for `day`, by key id. */
  readDay(day: string): Map<string, StoredUsage> {
    const out = new Map<string, StoredUsage>();
    // '0' is the character after '/', so the range holds exactly this day's entries.
    for (const { key, value } of this.db.getRange({ start: `${day}/`, end: `${day}0` })) {
      out.set(key.slice(day.length + 1), { used: value[0], requests: value[1] });
    }
    return out;
  }

  /** The counts of one key for `day`, or zeros. */
  get(day: string, id: string): StoredUsage {
    const v = this.db.get(`${day}/${id}`);
    return v === undefined ? { used: 0, requests: 0 } : { used: v[0], requests: v[1] };
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
