// Opens the state environment `<STATE_DIR>/state/` (keys and usage).

import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { KeyStore } from './key-store.js';
import { STATE_ENV_OPTIONS } from './state-write.js';
import { UsageStore } from './usage-store.js';

/** lmdb-js forbids opening one environment twice in a process (lmdb-js#164): refuse early. */
const openPaths = new Set<string>();

/** The keys and usage of one STATE_DIR, in one LMDB environment separate from snapshot data. */
export class StateStore {
  private closed = false;

  private constructor(
    /** The environment's folder, `<STATE_DIR>/state`. */
    readonly path: string,
    private readonly env: RootDatabase,
    /** Key records (hashes only) and their change counter. */
    readonly keys: KeyStore,
    /** Per-key, per-day usage counts (the daily history too) and each key's last use. */
    readonly usage: UsageStore,
  ) {}

  /** Opens (creating if needed) the state environment of `stateDir`. */
  static open(stateDir: string): StateStore {
    const path = join(resolve(stateDir), 'state');
    if (openPaths.has(path)) throw new Error(`state store ${path} is already open in this process`);
    mkdirSync(path, { recursive: true, mode: 0o700 }); // hashes and usage: owner only
    const env = open({ path, maxDbs: 8, ...STATE_ENV_OPTIONS }); // keys, meta, usage, last-used; room to grow
    openPaths.add(path);
    return new StateStore(path, env, new KeyStore(env, path), new UsageStore(env, path));
  }

  /** Makes the next reads see what other processes (the keys command) committed. */
  refresh(): void {
    this.env.resetReadTxn();
  }

  /**
   * Resolves when every write so far is committed and synced to disk, or (the last commit failed:
   * a full disk) at once: lmdb-js's `flushed` never settles after a failed commit (measured,
   * 3.5.6), and what failed was reported to its writer.
   */
  async flushed(): Promise<void> {
    if (
      await this.env.committed.then(
        () => true,
        () => false,
      )
    )
      await this.env.flushed;
  }

  /** Waits for pending writes to reach the disk, then closes the environment. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushed();
    await this.env.close();
    openPaths.delete(this.path);
  }
}
