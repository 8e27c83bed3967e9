// Every dashboard write: done with a good CSRF token; refused 403 csrf_failed with nothing changed on each CSRF failure.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readFile, writeFile } from 'node:fs/promises';
import type { MailMessage } from '../../../transport/admin/key-mail.js';
import { LAST_ROW, LAST_ROW_CLOSE_631 } from '../../helpers/fixture-copy.js';
import { type AdminServer, idOf, type Operator, startAdminServer } from './admin-server.js';

const sent: MailMessage[] = [];
let s: AdminServer;
let op: Operator;
let other: Operator;
let target: string;

before(async () => {
  s = await startAdminServer({ mailer: { send: async (m) => void sent.push(m) } });
  op = await s.signIn();
  s.clock.ms += 1; // sign-ins are not rate limited, but keep the two sessions' times apart
  other = await s.signIn();
  target = idOf(s.keys.free);
  await s.operator.setContact(target, 'desk@example.com');
});
after(() => s.close());

/** Makes the snapshot folder hold a new version (sh600001's last close 6.31), so a reload would change something. */
async function editFolder(): Promise<void> {
  const path = join(s.folder, 'ashare/klines.csv');
  const text = await readFile(path, 'utf8');
  if (text.includes(LAST_ROW)) await writeFile(path, text.replace(LAST_ROW, LAST_ROW_CLOSE_631));
}

/** Everything a write could change. */
function everything() {
  return JSON.stringify({
    keys: s.store.keys.list().map((k) => ({ ...k, hash: Buffer.from(k.hash).toString('hex') })),
    contacts: [...s.operator.allContacts()],
    version: s.state.dataset?.version,
    reload: s.reloads.last,
    mails: sent.length,
  });
}

/** [name, path, body] of every write. */
const WRITES: [string, () => string, unknown][] = [
  ['create a key', () => '/admin/api/keys', { plan: 'pro', org: 'Forged desk' }],
  ['disable a key', () => `/admin/api/keys/${target}/disable`, {}],
  ['enable a key', () => `/admin/api/keys/${target}/enable`, {}],
  ['rotate a key', () => `/admin/api/keys/${target}/rotate`, {}],
  ["change a key's plan", () => `/admin/api/keys/${target}/plan`, { plan: 'enterprise' }],
  ['set a contact', () => `/admin/api/keys/${target}/contact`, { contact: 'attacker@evil.example' }],
  ['mail a key', () => `/admin/api/keys/${target}/mail`, {}],
  ['reload the snapshot', () => '/admin/api/reload', {}],
  ['sign out', () => '/admin/api/sign-out', {}],
];

describe('each CSRF failure is 403 csrf_failed and changes nothing', () => {
  const FAILURES: [string, (path: string, body: unknown) => Promise<{ status: number; body: any }>][] = [
    ['no token', (path, body) => s.call(path, { method: 'POST', cookie: op.cookie, body })],
    [
      "another session's token",
      (path, body) => s.call(path, { method: 'POST', cookie: op.cookie, csrf: other.csrf, body }),
    ],
    [
      'a foreign Origin',
      (path, body) =>
        s.call(path, { method: 'POST', cookie: op.cookie, csrf: op.csrf, origin: 'http://evil.example', body }),
    ],
    [
      'no Origin',
      (path, body) => s.call(path, { method: 'POST', cookie: op.cookie, csrf: op.csrf, origin: null, body }),
    ],
    [
      'a look-alike Origin (other port)',
      (path, body) =>
        s.call(path, {
          method: 'POST',
          cookie: op.cookie,
          csrf: op.csrf,
          origin: `http://127.0.0.1:${s.port + 1}`,
          body,
        }),
    ],
  ];
  before(editFolder);
  for (const [write, path, body] of WRITES) {
    for (const [failure, send] of FAILURES) {
      test(`${write} with ${failure}`, async () => {
        const before = everything();
        const a = await send(path(), body);
        assert.equal(a.status, 403);
        assert.equal(a.body.code, 'csrf_failed');
        assert.equal(everything(), before, 'nothing changed');
        assert.equal(
          (await s.call('/admin/api/session', { cookie: op.cookie })).status,
          200,
          'the session is still open',
        );
      });
    }
  }
  test('the old free key still works (no rotate or disable went through)', async () => {
    const a = await s.call('/api/v1/quota', { headers: { 'x-api-key': s.keys.free } });
    assert.equal(a.status, 200);
  });
});

describe('each write with a good token', () => {
  test('create a key: 200, the key shown once, listed, and usable at once', async () => {
    const a = await s.write(op, '/admin/api/keys', { plan: 'enterprise', org: 'Desk N', contact: 'n@example.com' });
    assert.equal(a.status, 200, a.text);
    assert.match(a.body.key, /^mdq_[A-Za-z0-9]{12}_[A-Za-z0-9]{32}$/);
    assert.deepEqual(
      { plan: a.body.record.plan, org: a.body.record.org, contact: a.body.record.contact },
      { plan: 'enterprise', org: 'Desk N', contact: 'n@example.com' },
    );
    const list = await s.call('/admin/api/keys', { cookie: op.cookie });
    const listed = list.body.keys.find((k: any) => k.id === a.body.record.id);
    assert.equal(listed.contact, 'n@example.com');
    assert.ok(!list.text.includes(a.body.key.split('_')[2]), 'the list never holds the secret');
    assert.equal(
      (await s.call('/api/v1/quota', { headers: { 'x-api-key': a.body.key } })).status,
      200,
      'the guard knows the key without waiting for the sync',
    );
  });

  test('create a key with a bad plan or contact is 400 invalid_parameter and creates nothing', async () => {
    const count = s.store.keys.list().length;
    for (const body of [{ plan: 'gold' }, { plan: 'pro', contact: 'not an address' }, { plan: 'pro', org: 'a\tb' }]) {
      const a = await s.write(op, '/admin/api/keys', body);
      assert.equal(a.status, 400, JSON.stringify(body));
      assert.equal(a.body.code, 'invalid_parameter');
    }
    assert.equal(s.store.keys.list().length, count);
  });

  test('disable a key: the API refuses it at once (401)', async () => {
    const a = await s.write(op, `/admin/api/keys/${target}/disable`);
    assert.equal(a.status, 200);
    assert.equal(a.body.record.disabled, true);
    assert.equal((await s.call('/api/v1/quota', { headers: { 'x-api-key': s.keys.free } })).status, 401);
  });

  test('enable it again: the API serves it', async () => {
    const a = await s.write(op, `/admin/api/keys/${target}/enable`);
    assert.equal(a.body.record.disabled, false);
    assert.equal((await s.call('/api/v1/quota', { headers: { 'x-api-key': s.keys.free } })).status, 200);
  });

  test('rotate a key: a new key for the same id; the old key stops working', async () => {
    const a = await s.write(op, `/admin/api/keys/${target}/rotate`);
    assert.equal(a.status, 200);
    assert.equal(idOf(a.body.key), target);
    assert.equal((await s.call('/api/v1/quota', { headers: { 'x-api-key': s.keys.free } })).status, 401);
    assert.equal((await s.call('/api/v1/quota', { headers: { 'x-api-key': a.body.key } })).status, 200);
  });

  test('set a contact', async () => {
    const a = await s.write(op, `/admin/api/keys/${target}/contact`, { contact: 'ops@example.com' });
    assert.equal(a.status, 200);
    assert.equal(s.operator.contact(target), 'ops@example.com');
  });

  test('mail a key: one message to its contact', async () => {
    const a = await s.write(op, `/admin/api/keys/${target}/mail`);
    assert.equal(a.status, 200, a.text);
    assert.equal(sent.at(-1)!.to, 'ops@example.com');
  });

  test('an unknown key id is 404 not_found', async () => {
    for (const action of ['disable', 'enable', 'rotate', 'plan', 'mail']) {
      const a = await s.write(op, `/admin/api/keys/NoSuchKey123/${action}`, action === 'plan' ? { plan: 'pro' } : {});
      assert.equal(a.status, 404, action);
      assert.equal(a.body.code, 'not_found');
    }
  });

  test('reload the snapshot: the new version is served, and the data page shows when and how long', async () => {
    const before = s.state.dataset!.version;
    const a = await s.write(op, '/admin/api/reload');
    assert.equal(a.status, 200, a.text);
    assert.equal(a.body.kind, 'loaded');
    assert.notEqual(a.body.version, before);
    assert.equal(s.state.dataset!.version, a.body.version);
    const data = await s.call('/admin/api/data', { cookie: op.cookie });
    assert.equal(data.body.version, a.body.version);
    assert.equal(data.headers['x-data-version'], a.body.version);
    assert.equal(data.body.reload.last.kind, 'loaded');
    assert.equal(typeof data.body.reload.last.seconds, 'number');
  });

  test('reload a broken snapshot: rejected with file:line: reason, the old version kept and shown as the last rejected', async () => {
    const served = s.state.dataset!.version;
    const path = join(s.folder, 'ashare/klines.csv');
    const text = await readFile(path, 'utf8');
    await writeFile(
      path,
      text.replace(LAST_ROW_CLOSE_631, 'sh600001,2025-03-14,6.23,6.10,6.22,6.31,46211,28951191.50,2.157024'),
    );
    const a = await s.write(op, '/admin/api/reload');
    assert.equal(a.body.kind, 'rejected');
    assert.match(a.body.reason, /klines\.csv:\d+/);
    assert.equal(s.state.dataset!.version, served);
    const data = await s.call('/admin/api/data', { cookie: op.cookie });
    assert.equal(data.body.reload.last_rejected.kind, 'rejected');
    assert.match(data.body.reload.last_rejected.reason, /klines\.csv/);
  });

  test('sign out (last)', async () => {
    assert.equal((await s.write(op, '/admin/api/sign-out')).status, 200);
    assert.equal((await s.call('/admin/api/keys', { cookie: op.cookie })).status, 401);
  });
});
