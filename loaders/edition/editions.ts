// The one lifecycle of editions in a server: store a folder (only what changed), open the edition,
// publish it to every serving thread and pool worker, release the one before once nothing reads
// it, keep KEEP_EDITIONS on disk. A start is the first pass of it; a reload (SIGHUP, the
// dashboard) every later one.

import { fork } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';
import { DamagedFile, setAside, StateFolderError } from './damage.js';
import { partDir } from './layout.js';
import { type OpenEdition, openEdition } from './open-edition.js';
import { verifyInChild } from './part-verify.js';
import type { StoreResult } from './store-edition.js';
import type { StoreJob, StoreMessage, StoreProgress } from './store-task.js';
import { pointedOrNewest, pruneEditions, readCurrent, storedByFingerprint } from './stored-editions.js';

/** Those that serve an edition besides this thread: the other serving threads and the kernel pool. */
export interface EditionPeers {
  /** Every peer opens `version` and serves it from now on; resolves once all have. */
  publish(version: string): Promise<void>;
  /** Resolves once no peer reads `version` any longer (each closed its handles). */
  released(version: string): Promise<void>;
  /** The editions served now (their `Dataset.origin` keys): the pool's workers let go of the others. */
  setLive(keys: string[]): void;
}

/** This thread's side of serving an edition: the server's Dataset, and when its requests are done with one. */
export interface EditionHost {
  swap(dataset: Dataset): void;
  released(dataset: Dataset): Promise<void>;
}

export interface PrepareResult {
  /** What the store did (null: no folder was read, the stored edition was opened). */
  store: StoreResult | null;
  /**
   * Settles once the edition stored is on disk and the pointer names it, which may be after `next`
   * is served; rejects when that fails (a full disk: the edition served is in memory only).
   */
  durable: Promise<void>;
  /** The edition to publish, opened in this thread; null when it is the one served already. */
  next: OpenEdition | null;
}

/** A store in a child process: what it wrote, as soon as it may be served (null: nothing new written), and its end. */
export interface ChildStore {
  written: Promise<StoreResult | null>;
  done: Promise<StoreResult>;
}

/**
 * Stores `job.folder` in a child process, telling `onProgress` the plan and the rows read. A rejected
 * snapshot throws a SnapshotError. A process, not a thread: parsing and hashing stay off the serving
 * thread, and the memory the parse took goes back to the system when it exits (a thread's would
 * stay in this process's heap and allocator, and grow the server's RSS after each reload).
 */
export function storeInChild(job: StoreJob, onProgress: (p: StoreProgress) => void = () => {}): ChildStore {
  let written: (store: StoreResult | null) => void = () => {};
  const early = new Promise<StoreResult | null>((resolve) => (written = resolve));
  const done = new Promise<StoreResult>((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./store-task.js', import.meta.url)), [JSON.stringify(job)], {
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let settled = false;
    child.on('message', (m: StoreMessage) => {
      if ('progress' in m && m.progress === 'written') return written(m.store);
      if ('progress' in m) return void (settled || onProgress(m));
      settled = true;
      if (m.ok) resolve(m.store);
      else
        reject(
          m.rejected !== null
            ? new SnapshotError(m.rejected.file, m.rejected.line, m.rejected.reason)
            : m.stateFolder === true
              ? new StateFolderError(m.message)
              : new Error(m.message),
        );
    });
    child.once('error', (error) => settled || ((settled = true), reject(error)));
    child.once(
      'exit',
      (code, signal) =>
        settled ||
        ((settled = true),
        reject(new Error(`snapshot store process ended (${signal ?? `exit code ${code}`}) before answering`))),
    );
  });
  // Written or not, the edition is known at the end: a store that wrote nothing new says so then.
  void done.then(
    () => written(null),
    () => written(null),
  );
  return { written: early, done };
}

export interface EditionsOptions {
  stateDir: string;
  /** Stored editions kept on disk (KEEP_EDITIONS): the newest, and any still read. */
  keep: number;
  log: (line: string) => void;
  /** Worker threads the store parses markets on (default: the cores, at most 6). */
  storeThreads?: number;
  /**
   * Told when a part fails its content check in the background (its pack's crc32 differs from
   * the one stored with it): the part is set aside already; `served` says whether the edition
   * served now names it. Without it, the check is not run.
   */
  onDamaged?: (damage: DamagedFile, served: boolean) => void;
}

export class Editions {
  private servedEdition: OpenEdition | null = null;
  /** Editions of this thread published and not yet closed: the served one, and those still read. */
  private readonly opened = new Set<OpenEdition>();
  private peers: EditionPeers | null = null;
  /** Parts whose content this process checked (or is checking), by folder. */
  private readonly verified = new Set<string>();
  /** Whether published editions' parts are checked (from `checkParts` on). */
  private checking = false;
  /** Settles once the last store is on disk (its pointer written): a store waits for the one before. */
  private durable: Promise<void> = Promise.resolve();

  constructor(private readonly options: EditionsOptions) {}

  /** The edition served now (null before the first publish). */
  get served(): OpenEdition | null {
    return this.servedEdition;
  }

  /** From now on publications reach `peers` too (they serve the edition served now already). */
  attach(peers: EditionPeers): void {
    this.peers = peers;
    peers.setLive(this.liveKeys());
  }

  /**
   * Stores `folder` (null: none to read) and opens the current edition in this thread (without a
   * pointer, the newest stored), unless it is the one served already (then `next` is null). A
   * stored file that fails its checks (an edition.json edited or damaged, a part cut short) counts
   * as absent: it is set aside and the folder (or, with none given, the edition's own source
   * folder) stored again; with no folder to store it from, StateFolderError names the file.
   */
  async prepare(
    folder: string | null,
    onProgress?: (p: StoreProgress | { progress: 'open' }) => void,
  ): Promise<PrepareResult> {
    const { stateDir, log } = this.options;
    // A folder known by its fingerprint (unchanged, or switched back) needs no worker; any other is read on one.
    const heard = (p: StoreProgress): void =>
      p.progress === 'set-aside'
        ? log(`${p.file}: ${p.reason}: set aside as damaged; storing it again`)
        : onProgress?.(p);
    // The store before must be on disk first: its pointer is written last, after this one's otherwise.
    await this.durable;
    /** The folder stored: what was written, as soon as it may be served (its durability after). */
    const storeFolder = async (from: string): Promise<{ store: StoreResult; durable: Promise<void> }> => {
      const known = await storedByFingerprint(stateDir, from).catch(() => null);
      if (known !== null) return { store: known, durable: Promise.resolve() };
      const inUse = [...this.opened].map((e) => e.meta.version);
      const prune = { keep: this.options.keep, inUse };
      const child = storeInChild({ folder: from, stateDir, threads: this.options.storeThreads, prune }, heard);
      const written = await Promise.race([child.written, child.done]);
      const durable = child.done.then(() => {});
      // The pointer moves once the store is on disk: an edition released before then was kept as the one it named.
      this.durable = durable.then(() => this.prune()).catch(() => {});
      return { store: written ?? (await child.done), durable };
    };
    let stored = folder === null ? null : await storeFolder(folder);
    for (let again = false; ; again = true) {
      onProgress?.({ progress: 'open' });
      try {
        // The edition the store wrote (served while it is forced to disk), else the one the pointer names.
        const version = stored?.store.version ?? (await pointedOrNewest(stateDir))?.version ?? null;
        if (version === null) throw new Error(`no snapshot stored under ${stateDir}`);
        const store = stored?.store ?? null;
        const durable = stored?.durable ?? Promise.resolve();
        if (version === this.servedEdition?.meta.version) return { store, durable, next: null };
        return { store, durable, next: openEdition(stateDir, version) };
      } catch (error) {
        if (!(error instanceof DamagedFile)) throw error;
        await setAside(error.folder);
        const from = folder ?? (await this.sourceFolder());
        if (from === null || again)
          throw new StateFolderError(
            from === null
              ? `${error.message}; no snapshot folder to store it again from (give one: --snapshot or SNAPSHOT_DIR)`
              : `${error.message}: still so after storing ${from} again`,
          );
        log(`${error.message}: set aside; storing ${from} again`);
        stored = await storeFolder(from);
      }
    }
  }

  /** The folder the edition current.json names was read from, if it is still a folder. */
  private async sourceFolder(): Promise<string | null> {
    const source = (await readCurrent(this.options.stateDir))?.source ?? null;
    try {
      return source !== null && statSync(source).isDirectory() ? source : null;
    } catch {
      return null;
    }
  }

  /**
   * Makes `next` the edition served by every peer (each opens it itself), then by this thread.
   * The edition served before is released in the background: closed here once `host` says no
   * request reads it and every peer has closed it, then stored editions beyond KEEP_EDITIONS are
   * deleted.
   */
  async publish(next: OpenEdition, host: EditionHost): Promise<void> {
    const before = this.servedEdition;
    this.opened.add(next);
    this.peers?.setLive(this.liveKeys());
    await this.peers?.publish(next.meta.version);
    host.swap(next.dataset);
    this.servedEdition = next;
    this.verify(next);
    if (before !== null) void this.release(before, host);
    else await this.prune();
  }

  /**
   * From now on the parts of the edition served, and of each one published after it, are checked
   * in the background (`verify`). Called once the server runs whole (its other threads started):
   * a part set aside earlier would fail a thread still opening the edition.
   */
  checkParts(): void {
    this.checking = true;
    if (this.servedEdition !== null) this.verify(this.servedEdition);
  }

  /**
   * Checks in the background, in a child process, the content of every part of `edition` this
   * process has not checked yet: each pack's crc32 against the one stored with it (reading every
   * byte: 1.2 GB for the full demo, too long to wait for at start). A part that fails is set
   * aside and reported to `onDamaged`.
   */
  private verify(edition: OpenEdition): void {
    const report = this.options.onDamaged;
    if (report === undefined || !this.checking) return;
    const dirs = edition.meta.markets
      .map((m) => partDir(this.options.stateDir, m.part))
      .filter((dir) => !this.verified.has(dir));
    if (dirs.length === 0) return;
    for (const dir of dirs) this.verified.add(dir);
    void verifyInChild(dirs).then(
      async (damaged) => {
        for (const damage of damaged) {
          if (damage.reason === 'missing') continue; // deleted since (pruned once no longer served): nothing to check
          await setAside(damage.folder).catch(() => null);
          const served = this.servedEdition?.meta.markets.some(
            (m) => partDir(this.options.stateDir, m.part) === damage.folder,
          );
          report(damage, served === true);
        }
      },
      (error: unknown) => {
        for (const dir of dirs) this.verified.delete(dir); // checked again with the next edition that names them
        this.options.log(`editions: checking parts failed: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }

  private async release(edition: OpenEdition, host: EditionHost): Promise<void> {
    try {
      await Promise.all([host.released(edition.dataset), this.peers?.released(edition.meta.version)]);
      this.opened.delete(edition);
      this.peers?.setLive(this.liveKeys());
      await edition.close();
      await this.prune();
    } catch (error) {
      this.options.log(
        `editions: releasing ${edition.meta.version} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private liveKeys(): string[] {
    return [...this.opened].flatMap((e) => (e.dataset.origin === undefined ? [] : [e.dataset.origin.key]));
  }

  /** Deletes stored editions beyond KEEP_EDITIONS that nothing here reads. */
  private async prune(): Promise<void> {
    const deleted = await pruneEditions(
      this.options.stateDir,
      this.options.keep,
      [...this.opened].map((e) => e.meta.version),
    );
    if (deleted.length > 0)
      this.options.log(`editions: deleted ${deleted.join(', ')} (KEEP_EDITIONS=${this.options.keep})`);
  }
}
