// Writes to the state folder's LMDB environments that may fail (a full disk): one clear error, no promise left unhandled.

import { freeBytes } from '../free-space.js';

/**
 * The state folder could not be written (a full disk, mostly): nothing of that write was stored,
 * and the environment takes later writes once there is room again (measured: lmdb-js 3.5.6 on a
 * full tmpfs). `stateUnwritable` lets the dashboard tell it apart without importing loaders.
 */
export class StateWriteError extends Error {
  readonly stateUnwritable = true;

  constructor(
    /** What was being written ("usage counts", "key abc123"). */
    readonly what: string,
    /** The environment's folder. */
    readonly path: string,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message.split(':')[0] : String(cause);
    super(`${what} could not be written to ${path} (${reason}${freeBytes(path) === 0 ? '; its disk is full' : ''})`);
  }
}

/**
 * Below this much free space a state write is not attempted. lmdb-js 3.5.6 fails a commit on a full
 * disk cleanly a few times, then corrupts its heap while aborting one (glibc ends the process:
 * "corrupted size vs. prev_size", seen in mdb_txn_abort after a failed page write): a write that
 * would fail must not reach LMDB. The state's writes are small (a round of 10,000 keys' counts
 * dirties well under 1 MiB of pages).
 */
export const MIN_ROOM_BYTES = 1 << 20;

/** Throws StateWriteError for `what` when the disk holding `path` has less than MIN_ROOM_BYTES free. */
export function refuseWithoutRoom(what: string, path: string): void {
  const free = freeBytes(path);
  if (free === null || free >= MIN_ROOM_BYTES) return; // unknown: the write says what it says
  const cause = free === 0 ? 'No space left on device' : `only ${Math.floor(free / 1024)} KiB left on its disk`;
  throw new StateWriteError(what, path, new Error(cause));
}

/**
 * Resolves with `write`'s value once committed; a failed commit rejects with StateWriteError naming
 * the cause. lmdb-js rejects a write whose commit failed with a bare "Commit failed" and tells the
 * cause on a side promise (`commitError`) it rejects too: handled here, or it would end the process
 * as an unhandled rejection. Its own promise for a batch of one event turn cannot be held by any
 * caller, so the environments that use this are opened with `eventTurnBatching: false`.
 */
export async function committed<T>(write: Promise<T>, what: string, path: string): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const side = (error as { commitError?: Promise<unknown> } | null)?.commitError;
    let cause: unknown = error;
    if (side !== undefined) {
      // Rejected in the same callback as the write (a later one at most): the wait is bounded all the same.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<unknown>((resolve) => (timer = setTimeout(() => resolve(error), 1000)));
      cause = await Promise.race([
        side.then(
          () => error,
          (c: unknown) => c,
        ),
        late,
      ]);
      clearTimeout(timer);
    }
    throw new StateWriteError(what, path, cause);
  }
}

/** Runs `write` (a synchronous transaction); a failure throws StateWriteError. */
export function committedSync<T>(write: () => T, what: string, path: string): T {
  refuseWithoutRoom(what, path);
  try {
    return write();
  } catch (error) {
    throw new StateWriteError(what, path, error);
  }
}

/** lmdb-js options of an environment written through `committed` (see there). */
export const STATE_ENV_OPTIONS = { eventTurnBatching: false } as const;
