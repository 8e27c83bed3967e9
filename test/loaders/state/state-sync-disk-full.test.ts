// State sync on a real full disk (a tmpfs, filled up) with more changed keys than one flush writes per event turn: the
// failed commits are held and reported, never left to end the process, and the counts are written once there is room.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { StateStore } from '../../../loaders/state/state-store.js';
import { type GuardPort, StateSync } from '../../../loaders/state/state-sync.js';
import type { StateWriteError } from '../../../loaders/state/state-write.js';
import { mountSmallDisk } from '../../helpers/small-disk.js';

const DAY = '2024-06-01';
const T0 = Date.parse(`${DAY}T12:00:00Z`);

/** A guard whose `keys` keys all changed since each drain: every flush writes all of them, with counts one higher. */
function busyGuard(keys: number): GuardPort & { round: number } {
  const ids = Array.from({ length: keys }, (_, i) => `k${String(i).padStart(7, '0')}`);
  return {
    round: 0,
    setKeys() {},
    dayLabel: () => DAY,
    seedUsage: () => true,
    drainDirty(visit) {
      this.round++;
      for (const id of ids) visit(id, DAY, this.round * 10, this.round, 0, 0, T0 + this.round, 0);
      return ids.length;
    },
  };
}

for (const keys of [251, 2_000]) {
  test(`${keys} changed keys on a full disk (more than one slice of puts): usage held and reported, the process lives on, all written once there is room`, async (t) => {
    const parent = mkdtempSync(join(tmpdir(), 'mdq-sync-full-'));
    const cleanup: Array<() => unknown> = [() => rmSync(parent, { recursive: true, force: true })];
    t.after(async () => {
      for (const f of cleanup.reverse()) await f();
    });
    const disk = mountSmallDisk(t, parent, 8);
    if (disk === null) return;
    cleanup.push(() => disk.unmount());
    // An unhandled rejection ends the server (Node 20): here it is caught and counted instead.
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    cleanup.push(() => process.off('unhandledRejection', onUnhandled));

    const store = StateStore.open(disk.path);
    cleanup.push(() => store.close());
    const guard = busyGuard(keys);
    const told: Array<[boolean, StateWriteError | null]> = [];
    const errors: unknown[] = [];
    const sync = StateSync.start(store, guard, {
      now: () => T0,
      intervalMs: 3_600_000, // only the test's rounds
      onDurable: (durable, error) => told.push([durable, error]),
      onError: (err) => errors.push(err),
    });
    cleanup.push(() => sync.close());
    assert.ok((await disk.fill()) > 0, 'the disk is filled');
    await sync.tick(); // all keys, slice after slice: their commits fail while the flush yields
    await sync.tick(); // a retry while still full: one row first
    await new Promise((r) => setTimeout(r, 200)); // late rejections (lmdb-js's commitError) have come by now
    assert.deepEqual(unhandled, [], 'no rejection left unhandled');
    assert.deepEqual(errors, [], 'a full disk is reported through onDurable only');
    assert.equal(sync.durable, false, 'usage is held in memory');
    assert.equal(told.length, 1, 'told once that usage is not durable');
    assert.equal(told[0][0], false);
    assert.match(String(told[0][1]?.message), /usage counts could not be written .*its disk is full/);

    await disk.free();
    await sync.tick();
    assert.equal(sync.durable, true, 'the held counts were written');
    assert.deepEqual(told.at(-1), [true, null]);
    const stored = store.usage.readDay(DAY);
    assert.equal(stored.size, keys);
    for (const [id, u] of stored)
      assert.deepEqual([id, u.used, u.requests], [id, guard.round * 10, guard.round], 'the latest counts of each key');
    assert.equal(store.usage.readLastUsed().get('k0000000'), T0 + guard.round);
    assert.deepEqual(unhandled, []);
  });
}
