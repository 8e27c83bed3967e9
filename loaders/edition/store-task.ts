// Child process: stores a snapshot folder as an edition off the server's process, telling its
// progress over the IPC channel. The job is the first argument (JSON).

import { estimateFileRows } from '../snapshot/estimate-rows.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';
import { StateFolderError } from './damage.js';
import { storeEdition, type StoreResult } from './store-edition.js';

export interface StoreJob {
  folder: string;
  stateDir: string;
  /** Worker threads parsing markets side by side (0: this one). */
  threads?: number;
  /** Editions beyond KEEP_EDITIONS deleted before parts are written (StoreOptions.prune). */
  prune?: { keep: number; inUse: readonly string[] };
}

/**
 * On the way: `plan` once the markets to parse are known (about `totalRows` K-line rows to
 * read, an estimate; 0 when every market is stored already), then `rows` read since the last
 * message, at most every ROWS_EVERY_MS; then `store` and `stored` while the parsed markets are
 * written.
 */
export type StoreProgress =
  | { progress: 'plan'; totalRows: number }
  | { progress: 'rows'; rows: number }
  /** Every file read is valid: `totalRows` of parsed markets to store, then `stored` as each is. */
  | { progress: 'store'; totalRows: number }
  | { progress: 'stored'; rows: number }
  /** A stored part failed its structural check: set aside, its market parsed again. */
  | { progress: 'set-aside'; file: string; reason: string }
  /** The new edition is written (not yet forced to disk, the pointer not yet moved): it may be served. */
  | { progress: 'written'; store: StoreResult };

/** The answer, last: plain data (structured clone keeps no Error fields). */
export type StoreOutcome =
  | { ok: true; store: StoreResult }
  | {
      ok: false;
      rejected: { file: string; line: number; reason: string } | null;
      /** The state folder cannot be served as it is (StateFolderError): `message` is its one line. */
      stateFolder?: true;
      message: string;
    };

export type StoreMessage = StoreProgress | StoreOutcome;

const ROWS_EVERY_MS = 100;

async function run(job: StoreJob): Promise<StoreOutcome> {
  const tell = (m: StoreProgress): void => void process.send!(m);
  let pending = 0;
  let last = performance.now();
  const flush = (): void => {
    if (pending > 0) tell({ progress: 'rows', rows: pending });
    pending = 0;
    last = performance.now();
  };
  try {
    const store = await storeEdition(job.folder, job.stateDir, {
      threads: job.threads,
      prune: job.prune,
      onPlan: async (files) =>
        tell({
          progress: 'plan',
          totalRows: (await Promise.all(files.map((f) => estimateFileRows(f.path)))).reduce((a, b) => a + b, 0),
        }),
      onRows: (rows) => {
        pending += rows;
        if (performance.now() - last >= ROWS_EVERY_MS) flush();
      },
      onStore: (totalRows) => (flush(), tell({ progress: 'store', totalRows })),
      onStored: (rows) => tell({ progress: 'stored', rows }),
      onSetAside: (file, reason) => tell({ progress: 'set-aside', file, reason }),
      onWritten: (store) => (flush(), tell({ progress: 'written', store })),
    });
    flush();
    return { ok: true, store };
  } catch (error) {
    if (error instanceof SnapshotError)
      return {
        ok: false,
        rejected: { file: error.file, line: error.line, reason: error.reason },
        message: error.message,
      };
    if (error instanceof StateFolderError)
      return { ok: false, rejected: null, stateFolder: true, message: error.message };
    // A system error (a full disk: ENOSPC) is the machine's, said in one line; anything else keeps its stack.
    const system = (error as NodeJS.ErrnoException | null)?.code !== undefined;
    return {
      ok: false,
      rejected: null,
      message: error instanceof Error ? ((system ? error.message : error.stack) ?? error.message) : String(error),
    };
  }
}

// The server gone (its channel closed): nothing waits for this store any longer.
const orphaned = (): never => process.exit(1);
process.once('disconnect', orphaned);
const outcome = await run(JSON.parse(process.argv[2]) as StoreJob);
process.send!(outcome, () => {
  process.off('disconnect', orphaned);
  process.disconnect();
});
