// Operator sign-in: the session cookie, wrong passwords slowed down, idle expiry on an injected clock, sign-out.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PASSWORD, startAdminServer } from './admin-server.js';

test('the right password opens a session: HttpOnly, SameSite=Strict, Path=/ cookie and a CSRF token', async (t) => {
  const s = await startAdminServer();
  t.after(() => s.close());
  const a = await s.call('/admin/api/sign-in', { body: { password: PASSWORD } });
  assert.equal(a.status, 200, a.text);
  const cookie = ([] as string[]).concat(a.headers['set-cookie'] ?? [])[0];
  assert.match(
    cookie,
    /^mdq_admin=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/$/,
    'no Secure over plain HTTP',
  );
  assert.match(a.body.csrf, /^[A-Za-z0-9_-]{43}$/);
  const session = await s.call('/admin/api/session', { cookie: cookie.split(';')[0] });
  assert.equal(session.status, 200);
  assert.equal(session.body.csrf, a.body.csrf, 'the page can fetch its token again');
});

test('a wrong password is 401 unauthorized and opens no session', async (t) => {
  const s = await startAdminServer();
  t.after(() => s.close());
  const a = await s.call('/admin/api/sign-in', { body: { password: 'wrong password!' } });
  assert.equal(a.status, 401);
  assert.equal(a.body.code, 'unauthorized');
  assert.equal(a.headers['set-cookie'], undefined);
});

test('after a wrong password, the next attempt from that address is refused (429, Retry-After) until the lockout passes, even with the right password', async (t) => {
  const s = await startAdminServer();
  t.after(() => s.close());
  assert.equal((await s.call('/admin/api/sign-in', { body: { password: 'guess one' } })).status, 401);
  const early = await s.call('/admin/api/sign-in', { body: { password: PASSWORD } });
  assert.equal(early.status, 429, 'locked for a moment');
  assert.equal(early.body.code, 'rate_limited');
  assert.equal(early.headers['retry-after'], '1');
  s.clock.ms += 1001;
  assert.equal(
    (await s.call('/admin/api/sign-in', { body: { password: PASSWORD } })).status,
    200,
    'the right password works once the lockout passed',
  );
});

test('each further wrong password doubles the lockout (1 s, 2 s, 4 s …)', async (t) => {
  const s = await startAdminServer();
  t.after(() => s.close());
  const waits: string[] = [];
  for (let i = 0; i < 4; i++) {
    assert.equal((await s.call('/admin/api/sign-in', { body: { password: `guess ${i}` } })).status, 401);
    const locked = await s.call('/admin/api/sign-in', { body: { password: `guess ${i}b` } });
    assert.equal(locked.status, 429);
    waits.push(String(locked.headers['retry-after']));
    s.clock.ms += Number(locked.headers['retry-after']) * 1000 + 1;
  }
  assert.deepEqual(waits, ['1', '2', '4', '8']);
});

test('a session ends after 30 idle minutes (injected clock) and answers 401', async (t) => {
  const s = await startAdminServer();
  t.after(() => s.close());
  const op = await s.signIn();
  s.clock.ms += 29 * 60_000;
  assert.equal((await s.call('/admin/api/data', { cookie: op.cookie })).status, 200, 'still alive after 29 minutes');
  s.clock.ms += 29 * 60_000;
  assert.equal(
    (await s.call('/admin/api/data', { cookie: op.cookie })).status,
    200,
    'each request restarts the idle clock',
  );
  s.clock.ms += 30 * 60_000 + 1;
  const late = await s.call('/admin/api/data', { cookie: op.cookie });
  assert.equal(late.status, 401);
  assert.equal(late.body.code, 'unauthorized');
  assert.equal((await s.call('/admin/api/data', { cookie: op.cookie })).status, 401, 'an ended session stays ended');
});

test('an expired session gets the sign-in form at /dashboard, not the app', async (t) => {
  const s = await startAdminServer();
  t.after(() => s.close());
  const op = await s.signIn();
  assert.match((await s.call('/dashboard', { cookie: op.cookie })).text, /src="\/dashboard\/app\.js"/);
  s.clock.ms += 31 * 60_000;
  const page = await s.call('/dashboard', { cookie: op.cookie });
  assert.doesNotMatch(page.text, /app\.js/);
  assert.match(page.text, /id="sign-in-form"/);
});

test('sign-out ends the session and clears the cookie', async (t) => {
  const s = await startAdminServer();
  t.after(() => s.close());
  const op = await s.signIn();
  const out = await s.write(op, '/admin/api/sign-out');
  assert.equal(out.status, 200);
  assert.match(String(out.headers['set-cookie']), /mdq_admin=; .*Max-Age=0/);
  assert.equal((await s.call('/admin/api/data', { cookie: op.cookie })).status, 401);
});

test('setting a new password ends every open session', async (t) => {
  const s = await startAdminServer();
  t.after(() => s.close());
  const op = await s.signIn();
  await s.operator.setPassword('another long password', new Date(Date.now() + 1000));
  assert.equal((await s.call('/admin/api/data', { cookie: op.cookie })).status, 401);
  assert.equal((await s.call('/admin/api/sign-in', { body: { password: 'another long password' } })).status, 200);
});

test('sign-in from a foreign Origin, or without one, is 403 csrf_failed (no login CSRF)', async (t) => {
  const s = await startAdminServer();
  t.after(() => s.close());
  for (const origin of ['http://evil.example', null]) {
    const a = await s.call('/admin/api/sign-in', { origin, body: { password: PASSWORD } });
    assert.equal(a.status, 403, `origin ${origin}`);
    assert.equal(a.body.code, 'csrf_failed');
    assert.equal(a.headers['set-cookie'], undefined);
  }
});
