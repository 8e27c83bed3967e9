// State sync: restart from stored counts, a new day from zero, keys changed by the CLI seen within a second.

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
  const created = (await run(process.execPath, [CLI, 'create', '--plan', 'pro', '--state', dir])).stdout.trim().split('\n').at(-1)!;
  await within('a created key works', () => g.authenticate(created) !== null);
  const id = created.split('_')[1];
  await run(process.execPath, [CLI, 'disable', id, '--state', dir]);
  await within('a disabled key fails', () => g.authenticate(created) === null);
  await run(process.execPath, [CLI, 'enable', id, '--state', dir]);
  const rotated = (await run(process.execPath, [CLI, 'rotate', id, '--state', dir])).stdout.trim().split('\n').at(-1)!;
  await within('a rotated key works', () => g.authenticate(rotated) !== null);
  assert.equal(g.authenticate(created), null, 'the rotated-away key fails');
});
