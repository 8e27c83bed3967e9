// State sync: restart from stored counts, a new day from zero, keys changed by the CLI seen within a second; last use, a day
// ended between flushes, pruning while running.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { StateStore } from '../../../loaders/state/state-store.js';
import { StateSync } from '../../../loaders/state/state-sync.js';
import { Guard } from '../../../transport/guard/guard.js';

const CLI = fileURLToPath(new URL('../../../loaders/cli/keys.js', import.meta.url));
const run = promisify(execFile);

/** A temp dir and a cleanup list run last-in first-out (sync before store before the dir). */
function tempDir(t: TestContext): { dir: string; cleanup: Array<() => unknown> } {
  const dir = mkdtempSync(join(tmpdir(), 'mdq-sync-'));
  const cleanup: Array<() => unknown> = [() => rmSync(dir, { recursive: true, force: true })];
  t.after(async () => {
    for (const f of cleanup.reverse()) await f();
  });
  return { dir, cleanup };
}

const T0 = Date.parse('2024-06-01T12:00:00Z');

test('a restart continues the day from the counts written at close', async (t) => {
  const { dir, cleanup } = tempDir(t);
  let store = StateStore.open(dir);
  const { key } = await store.keys.create('pro', 'Desk A');
  let g = new Guard();
  let sync = StateSync.start(store, g, { now: () => T0 });
  const k = g.authenticate(key)!;
  for (let i = 0; i < 5; i++) {
    g.admit(k, T0, true);
    g.charge(k, 40, T0);
  }
  await sync.close();
  await store.close();

  store = StateStore.open(dir);
  cleanup.push(() => store.close());
  g = new Guard();
  sync = StateSync.start(store, g, { now: () => T0 + 60_000 });
  cleanup.push(() => sync.close());
  const q = g.quota(g.authenticate(key)!, T0 + 60_000);
  assert.deepEqual([q.used, q.requests_today, q.remaining], [200, 5, 199_800]);
});

test('a restart on a later day starts from zero', async (t) => {
  const { dir, cleanup } = tempDir(t);
  let store = StateStore.open(dir);
  const { key } = await store.keys.create('free', '');
  let g = new Guard();
  let sync = StateSync.start(store, g, { now: () => T0 });
  const k = g.authenticate(key)!;
  g.admit(k, T0, true);
  g.charge(k, 100, T0);
  await sync.close();
  await store.close();

  store = StateStore.open(dir);
  cleanup.push(() => store.close());
  g = new Guard();
  const tomorrow = T0 + 86_400_000;
  sync = StateSync.start(store, g, { now: () => tomorrow });
  cleanup.push(() => sync.close());
  const q = g.quota(g.authenticate(key)!, tomorrow);
  assert.deepEqual([q.used, q.requests_today], [0, 0]);
});

test('keys created, disabled and rotated by the CLI take effect in a running guard within a second', async (t) => {
  const { dir, cleanup } = tempDir(t);
  const store = StateStore.open(dir);
  cleanup.push(() => store.close());
  const g = new Guard();
  const sync = StateSync.start(store, g, { intervalMs: 1_000 });
  cleanup.push(() => sync.close());

  const within = async (what: string, ok: () => boolean) => {
    const t0 = Date.now();
    while (!ok()) {
      assert.ok(Date.now() - t0 < 1_500, `${what} within about a second`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const created = (await run(process.execPath, [CLI, 'create', '--plan', 'pro', '--state', dir])).stdout
    .trim()
    .split('\n')
    .at(-1)!;
  await within('a created key works', () => g.authenticate(created) !== null);
  const id = created.split('_')[1];
  await run(process.execPath, [CLI, 'disable', id, '--state', dir]);
  await within('a disabled key fails', () => g.authenticate(created) === null);
  await run(process.execPath, [CLI, 'enable', id, '--state', dir]);
  const rotated = (await run(process.execPath, [CLI, 'rotate', id, '--state', dir])).stdout.trim().split('\n').at(-1)!;
  await within('a rotated key works', () => g.authenticate(rotated) !== null);
  assert.equal(g.authenticate(created), null, 'the rotated-away key fails');
});

test("a clean stop stores each key's last use with the day's counts; a restart reads both", async (t) => {
  const { dir, cleanup } = tempDir(t);
  let store = StateStore.open(dir);
  const { key, record } = await store.keys.create('pro', 'Desk A');
  const g = new Guard();
  const sync = StateSync.start(store, g, { now: () => T0, intervalMs: 3_600_000 }); // no timer flush: only the stop writes
  const k = g.authenticate(key)!;
  g.admit(k, T0 + 1_000, true);
  g.charge(k, 9, T0 + 1_000);
  await sync.close();
  await store.close();

  store = StateStore.open(dir);
  cleanup.push(() => store.close());
  assert.deepEqual([...store.usage.readLastUsed()], [[record.id, T0 + 1_000]]);
  assert.deepEqual(store.usage.readDays('2024-06-01', '2024-06-01').get('2024-06-01')?.get(record.id), {
    used: 9,
    requests: 1,
  });
});

test("a key's exported rows are stored with the day's counts, and a restart's guard starts from them", async (t) => {
  const { dir, cleanup } = tempDir(t);
  let store = StateStore.open(dir);
  const { key, record } = await store.keys.create('pro', 'Desk A');
  const g = new Guard();
  const sync = StateSync.start(store, g, { now: () => T0, intervalMs: 3_600_000 });
  const k = g.authenticate(key)!;
  g.admit(k, T0 + 1_000, false);
  assert.equal(g.chargeExport(k, 7_000_000, T0 + 1_000).fits, true);
  await sync.close();
  await store.close();

  store = StateStore.open(dir);
  cleanup.push(() => store.close());
  assert.deepEqual(store.usage.get('2024-06-01', record.id), {
    used: 0,
    requests: 1,
    rateLimited: 0,
    quotaExhausted: 0,
    exported: 7_000_000,
  });
  const again = new Guard();
  const resumed = StateSync.start(store, again, { now: () => T0 + 2_000, intervalMs: 3_600_000 });
  cleanup.push(() => resumed.close());
  const q = again.quota(again.authenticate(key)!, T0 + 2_000);
  assert.deepEqual(
    [q.export_used, q.export_remaining],
    [7_000_000, 13_000_000],
    'the allowance is not handed out twice',
  );
});

test('a day that ends between two flushes is stored with its last counts, and the new day apart', async (t) => {
  const { dir, cleanup } = tempDir(t);
  const store = StateStore.open(dir);
  cleanup.push(() => store.close());
  const { key, record } = await store.keys.create('pro', '');
  const clock = { ms: T0 };
  const g = new Guard();
  const sync = StateSync.start(store, g, { now: () => clock.ms, intervalMs: 3_600_000 });
  cleanup.push(() => sync.close());
  const k = g.authenticate(key)!;
  g.admit(k, T0, true);
  await sync.tick();
  const late = Date.parse('2024-06-01T23:59:59.900Z');
  g.admit(k, late, true);
  g.charge(k, 4, late);
  clock.ms = late + 200; // past midnight, before the next flush
  g.admit(k, clock.ms, true);
  await sync.tick();
  const days = store.usage.readDays('2024-06-01', '2024-06-02');
  assert.deepEqual(
    days.get('2024-06-01')?.get(record.id),
    { used: 4, requests: 2 },
    'both requests of the first day, the last one included',
  );
  assert.deepEqual(days.get('2024-06-02')?.get(record.id), { used: 0, requests: 1 });
  assert.equal(store.usage.readLastUsed().get(record.id), clock.ms);
});

test('a running sync prunes, at the first round of each new day, the days more than keepDays back', async (t) => {
  const { dir, cleanup } = tempDir(t);
  const store = StateStore.open(dir);
  cleanup.push(() => store.close());
  store.usage.put('2024-05-24', 'aaaa1111', 1, 1);
  store.usage.put('2024-05-25', 'aaaa1111', 2, 2);
  await store.usage.put('2024-05-26', 'aaaa1111', 3, 3);
  const clock = { ms: T0 }; // 2024-06-01
  const sync = StateSync.start(store, new Guard(), { now: () => clock.ms, keepDays: 7, intervalMs: 3_600_000 });
  cleanup.push(() => sync.close());
  assert.equal(await sync.pruneIfNewDay(), 1, "the start's prune, not a second one");
  assert.deepEqual(
    [...store.usage.readDays('2024-05-01', '2024-06-30').keys()],
    ['2024-05-25', '2024-05-26'],
    'at start: the 7 days before 2024-06-01 are kept',
  );
  clock.ms += 86_400_000; // 2024-06-02, the server still running
  await sync.tick();
  assert.equal(await sync.pruneIfNewDay(), 1, 'the new day pruned one more day');
  assert.deepEqual([...store.usage.readDays('2024-05-01', '2024-06-30').keys()], ['2024-05-26']);
});
