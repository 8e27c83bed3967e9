// The keys command, run compiled as a child process: outputs, state dir selection, set-plan against a running server, and error exits.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { StateStore } from '../../../loaders/state/state-store.js';
import { idOf, startAdminServer } from '../../transport/admin/admin-server.js';

const CLI = fileURLToPath(new URL('../../../loaders/cli/keys.js', import.meta.url));

function stateDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'mdq-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function keys(args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; out: string[]; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, STATE_DIR: '', ...env },
  });
  return { code: r.status, out: r.stdout.split('\n').filter(Boolean), err: r.stderr };
}

const KEY = /^mdq_[A-Za-z0-9]{12}_[A-Za-z0-9]{32}$/;

test('create prints the new key alone on the last line of stdout', (t) => {
  const dir = stateDir(t);
  const r = keys(['create', '--plan', 'pro', '--org', 'Desk A', '--state', dir]);
  assert.equal(r.code, 0);
  assert.match(r.out.at(-1)!, KEY);
});

test('list prints id, plan, state, org and created, tab-separated, and never the key', (t) => {
  const dir = stateDir(t);
  const key = keys(['create', '--plan', 'enterprise', '--org', 'Desk A', '--state', dir]).out.at(-1)!;
  const r = keys(['list', '--state', dir]);
  assert.equal(r.code, 0);
  assert.equal(r.out.length, 1, 'one line per key');
  const [id, plan, state, org, created, ...more] = r.out[0].split('\t');
  assert.deepEqual([id, plan, state, org, more], [key.split('_')[1], 'enterprise', 'enabled', 'Desk A', []]);
  assert.ok(!Number.isNaN(Date.parse(created)), 'created is an ISO instant');
  assert.ok(!r.out[0].includes(key.split('_')[2]), 'no secret in the listing');
});

test('disable and enable flip the listed state', (t) => {
  const dir = stateDir(t);
  const id = keys(['create', '--plan', 'free', '--state', dir]).out.at(-1)!.split('_')[1];
  assert.equal(keys(['disable', id, '--state', dir]).code, 0);
  assert.equal(keys(['list', '--state', dir]).out[0].split('\t')[2], 'disabled');
  assert.equal(keys(['enable', id, '--state', dir]).code, 0);
  assert.equal(keys(['list', '--state', dir]).out[0].split('\t')[2], 'enabled');
});

test('rotate prints a different key for the same id on the last line', (t) => {
  const dir = stateDir(t);
  const old = keys(['create', '--plan', 'free', '--state', dir]).out.at(-1)!;
  const id = old.split('_')[1];
  const r = keys(['rotate', id, '--state', dir]);
  assert.equal(r.code, 0);
  assert.match(r.out.at(-1)!, KEY);
  assert.notEqual(r.out.at(-1), old);
  assert.equal(r.out.at(-1)!.split('_')[1], id);
});

test('set-plan moves a key to another plan and says so on one line', (t) => {
  const dir = stateDir(t);
  const id = keys(['create', '--plan', 'free', '--state', dir]).out.at(-1)!.split('_')[1];
  const r = keys(['set-plan', id, 'enterprise', '--state', dir]);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out.length, 1);
  assert.match(r.out[0], /free → enterprise/);
  assert.equal(keys(['list', '--state', dir]).out[0].split('\t')[1], 'enterprise');
});

test("set-plan keeps the key's stored usage of the day", async (t) => {
  const dir = stateDir(t);
  const id = keys(['create', '--plan', 'pro', '--state', dir]).out.at(-1)!.split('_')[1];
  let store = StateStore.open(dir);
  await store.usage.put('2025-06-30', id, 1_234, 56, 2, 1);
  await store.close();
  assert.equal(keys(['set-plan', id, 'free', '--state', dir]).code, 0);
  store = StateStore.open(dir);
  const [usage, plan] = [store.usage.get('2025-06-30', id), store.keys.get(id)!.plan];
  await store.close();
  assert.deepEqual(usage, { used: 1_234, requests: 56, rateLimited: 2, quotaExhausted: 1 });
  assert.equal(plan, 'free');
});

test('a running server applies set-plan within a second, with the counts of the day kept', async (t) => {
  const s = await startAdminServer();
  t.after(() => s.close());
  const id = idOf(s.keys.pro);
  for (let i = 0; i < 2; i++)
    await s.call('/api/v1/ashare/klines/sh600001?limit=5', { headers: { 'x-api-key': s.keys.pro } });
  const before = (await s.call('/api/v1/quota', { headers: { 'x-api-key': s.keys.pro } })).body;
  const r = keys(['set-plan', id, 'enterprise', '--state', dirname(s.store.path)]);
  assert.equal(r.code, 0, r.err);
  let after = before;
  for (let i = 0; i < 30 && after.plan !== 'enterprise'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    after = (await s.call('/api/v1/quota', { headers: { 'x-api-key': s.keys.pro } })).body;
  }
  assert.equal(after.plan, 'enterprise', 'the state sync reloaded the keys');
  assert.equal(after.used, before.used, 'rows kept');
  assert.ok(after.requests_today > before.requests_today, 'requests kept and still counting');
  assert.equal(after.daily_quota, 2_000_000);
});

test('STATE_DIR is used when --state is absent', (t) => {
  const dir = stateDir(t);
  keys(['create', '--plan', 'internal'], { STATE_DIR: dir });
  assert.equal(keys(['list', '--state', dir]).out.length, 1);
});

for (const [what, args, code] of [
  ['an unknown plan', ['create', '--plan', 'gold'], 2],
  ['create without --plan', ['create'], 2],
  ['an unknown command', ['frobnicate'], 2],
  ['no command', [], 2],
  ['an unknown option', ['list', '--colour'], 2],
  ['a missing id', ['disable'], 2],
  ['an unknown id to disable', ['disable', 'nosuchkey1'], 1],
  ['an unknown id to enable', ['enable', 'nosuchkey1'], 1],
  ['an unknown id to rotate', ['rotate', 'nosuchkey1'], 1],
  ['an org with a tab', ['create', '--plan', 'pro', '--org', 'a\tb'], 2],
  ['set-plan without a plan', ['set-plan', 'nosuchkey1'], 2],
  ['set-plan to an unknown plan', ['set-plan', 'nosuchkey1', 'gold'], 2],
  ['set-plan with --plan instead of the argument', ['set-plan', 'nosuchkey1', 'pro', '--plan', 'pro'], 2],
  ['set-plan of an unknown id', ['set-plan', 'nosuchkey1', 'pro'], 1],
  ['an extra argument to rotate', ['rotate', 'nosuchkey1', 'pro'], 2],
] as const) {
  test(`${what} is one line on stderr and exit ${code}`, (t) => {
    const dir = stateDir(t);
    const r = keys([...args, '--state', dir]);
    assert.equal(r.code, code);
    assert.deepEqual(r.out, [], 'nothing on stdout');
    assert.equal(r.err.trimEnd().split('\n').length, 1, `one line: ${r.err}`);
  });
}
