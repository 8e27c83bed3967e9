// Key records in LMDB: id, plan, org, created, disabled and the secret's hash, never the key.

import type { Database, RootDatabase } from 'lmdb';
import type { KeyRecord, PlanName } from '../../engine/plans.js';
import { formatKey, hashSecret, newKeyId, newSecret } from './key-secret.js';
import { committedSync } from './state-write.js';

export type { KeyRecord };

/** A key just created or rotated: the record and the key text, to show once. */
export interface IssuedKey {
  readonly record: KeyRecord;
  readonly key: string;
}

const VERSION = 'keys_version';

/**
 * The key table. Every change bumps a counter that a running server polls to reload its copy.
 * Changes are synchronous transactions (0.5 ms here, 2 ms at most; rare, an operator's): lmdb-js's
 * asynchronous `transaction` never settles when its commit fails (measured on a full disk,
 * 3.5.6), which would leave a dashboard request unanswered. A failed change throws
 * StateWriteError and stores nothing.
 */
export class KeyStore {
  private readonly db: Database<KeyRecord, string>;
  private readonly meta: Database<number, string>;

  constructor(
    private readonly env: RootDatabase,
    /** The environment's folder (named in a failed write's error). */
    private readonly path: string,
  ) {
    this.db = env.openDB<KeyRecord, string>({ name: 'keys' });
    this.meta = env.openDB<number, string>({ name: 'meta' });
  }

  /** Change counter: differs whenever any key changed since it was last read. */
  version(): number {
    return this.meta.get(VERSION) ?? 0;
  }

  /** Every key, oldest first. */
  list(): KeyRecord[] {
    const out: KeyRecord[] = [];
    for (const { value } of this.db.getRange()) out.push(value);
    return out.sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : 1));
  }

  /** The key with this id, if any. */
  get(id: string): KeyRecord | undefined {
    return this.db.get(id);
  }

  /** Creates a key; the returned key text exists nowhere else. */
  async create(plan: PlanName, org: string, now: Date = new Date()): Promise<IssuedKey> {
    const secret = newSecret();
    let record!: KeyRecord;
    this.transaction('a new key', () => {
      let id = newKeyId();
      while (this.db.doesExist(id)) id = newKeyId();
      record = { id, plan, org, created: now.toISOString(), disabled: false, hash: hashSecret(secret) };
      this.write(record);
    });
    return { record, key: formatKey(record.id, secret) };
  }

  /** Disables or enables a key; undefined when the id is unknown. */
  async setDisabled(id: string, disabled: boolean): Promise<KeyRecord | undefined> {
    return this.change(id, (r) => ({ ...r, disabled }));
  }

  /**
   * Moves a key to another plan; undefined when the id is unknown. Only the record changes:
   * usage is stored by key id (usage-store.ts), so today's rows and requests carry over and
   * count against the new plan's limits.
   */
  async setPlan(id: string, plan: PlanName): Promise<KeyRecord | undefined> {
    return this.change(id, (r) => ({ ...r, plan }));
  }

  /** Gives a key a new secret (same id, plan and usage); the old key text stops working. */
  async rotate(id: string): Promise<IssuedKey | undefined> {
    const secret = newSecret();
    const record = await this.change(id, (r) => ({ ...r, hash: hashSecret(secret) }));
    return record && { record, key: formatKey(id, secret) };
  }

  /** Stores `record` as it is (a copy of another instance's change, loaders/state/key-mirror.ts). */
  async put(record: KeyRecord): Promise<void> {
    this.transaction(`key ${record.id}`, () => this.write(record));
  }

  private async change(id: string, edit: (r: KeyRecord) => KeyRecord): Promise<KeyRecord | undefined> {
    let out: KeyRecord | undefined;
    this.transaction(`key ${id}`, () => {
      const old = this.db.get(id);
      if (old === undefined) return;
      out = edit(old);
      this.write(out);
    });
    return out;
  }

  /** Runs `body` in one synchronous write transaction; a failed commit throws StateWriteError naming `what`. */
  private transaction(what: string, body: () => void): void {
    committedSync(() => this.env.transactionSync(body), what, this.path);
  }

  /** Inside a write transaction: stores the record and bumps the counter in the same commit. */
  private write(record: KeyRecord): void {
    this.db.put(record.id, record);
    this.meta.put(VERSION, (this.meta.get(VERSION) ?? 0) + 1);
  }
}
