// A full disk under the state folder (a real tmpfs, filled up) while serving and during a reload: the
// server lives on and answers from the edition it serves, holds usage in memory, says so, fails the
// reload with its reason, and writes the counts once there is room again.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { httpRequest } from '../helpers/api-server.js';
import { fixtureCopy, LAST_ROW, LAST_ROW_CLOSE_631 } from '../helpers/fixture-copy.js';
import { cleanEnv } from '../helpers/program-run.js';
import { repoint, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { type SmallDisk, mountSmallDisk } from '../helpers/small-disk.js';
import { tempDir } from '../helpers/snapshot-folder.js';

const KEYS_CLI = fileURLToPath(new URL('../../loaders/cli/keys.js', import.meta.url));
const KLINES = '/api/v1/ashare/klines/sh600001?limit=5';

let dir: Awaited<ReturnType<typeof tempDir>>;
let disk: SmallDisk | null = null;
let server: ServerProcess | null = null;
let state: string;
let link: string;
let B: string;
let key: string;
let password: string;
/** Rows charged and requests made with `key` (the answers' own counts). */
let rows = 0;
let requests = 0;
let versionA: string;

before(async () => {
  dir = await tempDir('mdq-disk-full-');
});

after(async () => {
  await server?.kill();
  disk?.unmount();
  await dir?.cleanup();
});

/** A K-line request with the key: 200, served from the edition `version` (by default A's); its rows counted. */
async function served(version = versionA): Promise<void> {
  const r = await httpRequest(server!.port, KLINES, { headers: { 'x-api-key': key } });
  requests++;
  assert.equal(r.status, 200, r.text);
  assert.equal(r.headers['x-data-version'], version, 'answered from the edition served');
  rows += Number(r.body.count);
}

const metric = async (name: string): Promise<string> =>
  (await httpRequest(server!.port, '/metrics')).text
    .split('\n')
    .filter((l) => l.startsWith(name))
    .join('\n');

test('a full disk while serving, then during a reload: alive, answering 200, usage held and then written', async (t) => {
  disk = mountSmallDisk(t, dir.path, 24);
  if (disk === null) return;
  state = join(disk.path, 'state');
  const A = await fixtureCopy(join(dir.path, 'A'));
  B = await fixtureCopy(join(dir.path, 'B'), [{ file: 'ashare/klines.csv', from: LAST_ROW, to: LAST_ROW_CLOSE_631 }]);
  link = join(dir.path, 'snapshot');
  await symlink(A, link);
  // Two serving threads: the other thread must learn that usage is not durable, and nothing may abort it.
  server = await startServerProcess({ snapshot: link, state, env: { THREADS: '2' } });
  versionA = server.version;
  let ended = false;
  void server.exited.then(() => (ended = true));
  key = server.keys.pro!;
  password = /operator password .*: (\S+)$/.exec(server.log.find((l) => l.includes('operator password'))!)![1];
  for (let i = 0; i < 3; i++) await served();

  assert.ok((await disk.fill()) > 0, 'the disk is filled');
  const from = server.log.length;
  const refused = server.waitForLog(/usage: not durable/, 30_000, from);
  let told = false;
  void refused.then(() => (told = true)).catch(() => {});
  // Requests go on while the flushes fail: every one answered.
  while (!told) {
    await served();
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.match(await refused, /could not be written .*its disk is full/, 'the log says why');
  for (let i = 0; i < 5; i++) await served();

  const ready = await httpRequest(server.port, '/readyz');
  assert.equal(ready.status, 200, 'still ready: the data is served');
  assert.deepEqual(ready.body, { status: 'ok', data_version: versionA, usage_durable: false });
  assert.equal(await metric('mdq_usage_durable '), 'mdq_usage_durable 0');

  // The keys command refuses with one line; the dashboard with a 507.
  const keys = spawnSync(process.execPath, [KEYS_CLI, 'create', '--plan', 'pro', '--org', 'Full'], {
    encoding: 'utf8',
    env: cleanEnv({ STATE_DIR: state }),
  });
  assert.equal(keys.status, 1, keys.stderr);
  // lmdb-js's C code writes its own "Write error: …" without a line end first; ours is the one line after it.
  assert.equal(keys.stderr.trim().split('\n').length, 1, `one line: ${keys.stderr}`);
  assert.match(
    keys.stderr,
    /keys: a new key could not be written to \S+state \(No space left on device; its disk is full\)\n$/,
  );
  assert.doesNotMatch(keys.stderr, /^\s+at /m, 'no stack trace');
  const origin = `http://127.0.0.1:${server.port}`;
  const signIn = await httpRequest(server.port, '/admin/api/sign-in', {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  });
  assert.equal(signIn.status, 200, signIn.text);
  const cookie = String(([] as string[]).concat(signIn.headers['set-cookie'] ?? [])[0]).split(';')[0];
  const made = await httpRequest(server.port, '/admin/api/keys', {
    method: 'POST',
    headers: { origin, cookie, 'x-csrf-token': String(signIn.body.csrf), 'content-type': 'application/json' },
    body: JSON.stringify({ plan: 'pro', org: 'Full' }),
  });
  assert.equal(made.status, 507, made.text);
  assert.equal(made.body.code, 'state_unwritable');

  // A reload onto a changed folder cannot store it: it fails with its reason, A is still served, nothing is left behind.
  await repoint(link, B);
  const before = server.log.length;
  server.signal('SIGHUP');
  const failed = await server.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 20_000, before);
  assert.match(failed, /reload: failed: .*(ENOSPC|no space left|No space left).*still serving/i);
  await served();
  assert.match(await metric('mdq_reloads_total{result="failed"}'), / 1$/);
  const leftovers = [
    ...(await readdir(join(state, 'snapshots'))),
    ...(await readdir(join(state, 'snapshots', 'parts'))),
  ].filter((n) => n.includes('.tmp-') || n.startsWith('.store-'));
  assert.deepEqual(leftovers, [], 'no temporary part, edition file or store marker is left');

  // Room again: the held counts are written, /readyz and /metrics say so, and a reload goes through.
  await disk.free();
  await server.waitForLog(/usage: the state folder takes writes again/, 10_000, before);
  const again = await httpRequest(server.port, '/readyz');
  assert.deepEqual(again.body, { status: 'ok', data_version: versionA, usage_durable: true });
  assert.equal(await metric('mdq_usage_durable '), 'mdq_usage_durable 1');
  const quota = await httpRequest(server.port, '/api/v1/quota', { headers: { 'x-api-key': key } });
  requests++;
  assert.equal(quota.body.used, rows, 'every row answered while the disk was full is counted');
  assert.equal(quota.body.requests_today, requests);
  const reloaded = server.log.length;
  server.signal('SIGHUP');
  const line = await server.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 20_000, reloaded);
  assert.match(line, /reload: now serving/);
  await served(server.log.find((l) => l.includes('reload: now serving'))!.match(/now serving (\S+)/)![1]);
  assert.equal(ended, false, 'the process never ended');

  // A clean stop and a restart: the counts held during the full disk were made durable.
  server.signal('SIGTERM');
  assert.equal((await server.exited).code, 0);
  server = await startServerProcess({ snapshot: link, state });
  const restarted = await httpRequest(server.port, '/api/v1/quota', { headers: { 'x-api-key': key } });
  assert.equal(restarted.body.used, rows);
  assert.equal(restarted.body.requests_today, requests + 1);
});
