// `npm run admin -- set-password`: the password read from stdin, stored only as a salted scrypt hash.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { hashPassword, passwordMatches, SCRYPT } from '../../../loaders/state/operator-password.js';
import { OperatorStore } from '../../../loaders/state/operator-store.js';

const CLI = fileURLToPath(new URL('../../../loaders/cli/admin.js', import.meta.url));

function stateDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'mdq-admin-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const admin = (args: string[], input: string) =>
  spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', env: { ...process.env, STATE_DIR: '' } });

test('set-password reads the first line of stdin; the server then accepts exactly that password', async (t) => {
  const dir = stateDir(t);
  const r = admin(['set-password', '--state', dir], 'a long enough password\n');
  assert.equal(r.status, 0, r.stderr);
  const store = OperatorStore.open(dir);
  t.after(() => store.close());
  assert.equal(await store.verifyPassword('a long enough password'), true);
  assert.equal(await store.verifyPassword('a long enough password\n'), false);
  assert.equal(await store.verifyPassword('another password'), false);
});

test('the password itself is nowhere in the state folder (a salted hash only)', async (t) => {
  const dir = stateDir(t);
  assert.equal(admin(['set-password', '--state', dir], 'findme-plaintext-42\n').status, 0);
  for (const file of readdirSync(join(dir, 'operator')))
    assert.ok(!readFileSync(join(dir, 'operator', file)).includes('findme-plaintext-42'), file);
});

test('the same password hashes differently each time (random salt); each hash checks only its password', async () => {
  const a = await hashPassword('the same password');
  const b = await hashPassword('the same password');
  assert.notDeepEqual(Buffer.from(a.salt), Buffer.from(b.salt));
  assert.notDeepEqual(Buffer.from(a.hash), Buffer.from(b.hash));
  assert.deepEqual({ algo: a.algo, N: a.N, r: a.r, p: a.p }, { algo: 'scrypt', ...SCRYPT });
  assert.equal(await passwordMatches('the same password', b), true);
  assert.equal(await passwordMatches('the same passworD', b), false);
});

test('a password under 12 characters is refused (exit 2) and nothing is stored', async (t) => {
  const dir = stateDir(t);
  const r = admin(['set-password', '--state', dir], 'short\n');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /at least 12/);
  const store = OperatorStore.open(dir);
  t.after(() => store.close());
  assert.equal(store.hasPassword(), false);
});

test('an unknown command is exit 2 with the usage', (t) => {
  const r = admin(['reset', '--state', stateDir(t)], '');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /set-password/);
});
