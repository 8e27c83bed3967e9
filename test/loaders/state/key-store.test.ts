// Key store: hashes only on disk, disabled and rotated keys fail, first-start keys, change counter.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { ensureFirstKeys } from '../../../loaders/state/first-keys.js';
import { hashSecret } from '../../../loaders/state/key-secret.js';
import { StateStore } from '../../../loaders/state/state-store.js';
import { secretHash } from '../../../transport/guard/api-key.js';
import { Guard } from '../../../transport/guard/guard.js';

function tempStore(t: TestContext): { dir: string; store: StateStore } {
  const dir = mkdtempSync(join(tmpdir(), 'mdq-keys-'));
  const store = StateStore.open(dir);
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, store };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

test('no key or secret appears in any file under STATE_DIR', async (t) => {
  const { dir, store } = tempStore(t);
  const issued = [...(await ensureFirstKeys(store.keys)), await store.keys.create('pro', 'Desk A')];
  issued.push((await store.keys.rotate(issued[0].record.id))!);
  await store.close();
  const files = filesUnder(dir);
  const all = Buffer.concat(files.map((f) => readFileSync(f)));
  assert.ok(all.includes(issued[0].record.id), 'the public id is found: the search reads what the store wrote');
  for (const f of files) {
    const bytes = readFileSync(f);
    for (const { key } of issued) {
      const secret = key.slice(key.lastIndexOf('_') + 1);
      assert.equal(bytes.includes(key), false, `${f} holds a whole key`);
      assert.equal(bytes.includes(secret), false, `${f} holds a secret`);
      assert.equal(bytes.includes(Buffer.from(secret, 'utf16le')), false, `${f} holds a secret in UTF-16`);
    }
  }
});

test('a created key authenticates against the stored hash, with the guard layer', async (t) => {
  const { store } = tempStore(t);
  const { record, key } = await store.keys.create('enterprise', 'Desk A');
  const g = new Guard();
  g.setKeys(store.keys.list());
  assert.equal(g.authenticate(key)?.id, record.id);
  assert.match(key, /^mdq_[A-Za-z0-9]{12}_[A-Za-z0-9]{32}$/, 'key format mdq_<id>_<secret>');
});

test('a disabled key fails authentication and an enabled one works again', async (t) => {
  const { store } = tempStore(t);
  const { record, key } = await store.keys.create('pro', '');
  const g = new Guard();
  await store.keys.setDisabled(record.id, true);
  g.setKeys(store.keys.list());
  assert.equal(g.authenticate(key), null, 'disabled');
  await store.keys.setDisabled(record.id, false);
  g.setKeys(store.keys.list());
  assert.equal(g.authenticate(key)?.id, record.id, 're-enabled');
});

test('a rotated-away key fails and the new key works', async (t) => {
  const { store } = tempStore(t);
  const { record, key } = await store.keys.create('free', 'Desk A');
  const rotated = (await store.keys.rotate(record.id))!;
  const g = new Guard();
  g.setKeys(store.keys.list());
  assert.equal(g.authenticate(key), null, 'old key fails');
  assert.equal(g.authenticate(rotated.key)?.id, record.id, 'new key works under the same id');
});

test('every change bumps the change counter', async (t) => {
  const { store } = tempStore(t);
  const v0 = store.keys.version();
  const { record } = await store.keys.create('free', 'x');
  const v1 = store.keys.version();
  await store.keys.setDisabled(record.id, true);
  const v2 = store.keys.version();
  await store.keys.rotate(record.id);
  assert.ok(v0 < v1 && v1 < v2 && v2 < store.keys.version(), 'strictly increasing');
});

test('ensureFirstKeys creates one key per plan on an empty store, and nothing after', async (t) => {
  const { store } = tempStore(t);
  const first = await ensureFirstKeys(store.keys);
  assert.deepEqual(
    first.map((k) => k.record.plan),
    ['free', 'pro', 'enterprise', 'internal'],
  );
  assert.deepEqual(await ensureFirstKeys(store.keys), [], 'second start creates none');
  assert.equal(store.keys.list().length, 4);
});

test('the store and the guard hash secrets alike', () => {
  assert.deepEqual(hashSecret('abcDEF123'), secretHash('abcDEF123'));
});

test('opening one state dir twice in a process is refused', (t) => {
  const { dir } = tempStore(t);
  assert.throws(() => StateStore.open(dir), /already open/);
});
