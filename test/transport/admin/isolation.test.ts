// The dashboard's edges: API keys never open it, only listed files are served (no traversal), other methods are 405.

import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import { type AdminServer, type Operator, startSignedIn } from './admin-server.js';

let s: AdminServer;
let op: Operator;
before(async () => ({ s, op } = await startSignedIn()));
after(() => s.close());

/** A GET with the path sent exactly as written (node's http client does not normalise `..`). */
function rawGet(path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: s.port, path, headers: { connection: 'close', cookie: op.cookie }, agent: false },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const READS = [
  '/admin/api/data',
  '/admin/api/reload',
  '/admin/api/keys',
  '/admin/api/usage',
  '/admin/api/health',
  '/admin/api/session',
];

test('no admin read answers to an API key, whatever way it is presented: 401 unauthorized', async () => {
  for (const key of Object.values(s.keys)) {
    for (const path of READS) {
      const ways: Record<string, string>[] = [
        { 'x-api-key': key },
        { authorization: `Bearer ${key}` },
        { cookie: `mdq_admin=${key}` },
      ];
      for (const headers of ways) {
        const a = await s.call(path, { headers });
        assert.equal(a.status, 401, `${path} with ${Object.keys(headers)[0]}`);
        assert.equal(a.body.code, 'unauthorized');
      }
    }
  }
});

test('no admin write answers to an API key: nothing is created', async () => {
  const count = s.store.keys.list().length;
  const a = await s.call('/admin/api/keys', {
    method: 'POST',
    headers: { 'x-api-key': s.keys.internal },
    body: { plan: 'pro' },
  });
  assert.equal(a.status, 401);
  assert.equal(s.store.keys.list().length, count);
});

test('/dashboard with an API key is the sign-in form, not the app', async () => {
  const a = await s.call('/dashboard', { headers: { 'x-api-key': s.keys.internal } });
  assert.equal(a.status, 200);
  assert.match(a.text, /id="sign-in-form"/);
  assert.doesNotMatch(a.text, /app\.js/);
});

test('/dashboard with a session is the app, with a strict Content-Security-Policy and no caching', async () => {
  const a = await s.call('/dashboard', { cookie: op.cookie });
  assert.match(a.text, /src="\/dashboard\/app\.js"/);
  assert.match(String(a.headers['content-security-policy']), /script-src 'self'; .*frame-ancestors 'none'/);
  assert.equal(a.headers['cache-control'], 'no-store');
  assert.equal(a.headers['x-frame-options'], 'DENY');
});

test('every listed file is served with its type', async () => {
  for (const [name, type] of [
    ['app.js', /javascript/],
    ['sign-in.js', /javascript/],
    ['dashboard.css', /css/],
    ['uplot.js', /javascript/],
    ['uplot.css', /css/],
  ] as const) {
    const a = await s.call(`/dashboard/${name}`);
    assert.equal(a.status, 200, name);
    assert.match(String(a.headers['content-type']), type);
    assert.ok(a.text.length > 100, `${name} has content`);
  }
});

test('no path traversal: `..`, encoded and nested variants are 404', async () => {
  const paths = [
    '/dashboard/../package.json',
    '/dashboard/../../package.json',
    '/dashboard/%2e%2e/package.json',
    '/dashboard/%2E%2E%2Fpackage.json',
    '/dashboard/..%2fpackage.json',
    '/dashboard/..%5cpackage.json',
    '/dashboard/%252e%252e/package.json',
    '/dashboard/./app.js',
    '/dashboard//app.js',
    '/dashboard/app.js/',
    '/dashboard/app.js%00.css',
    '/dashboard/dashboard.html',
    '/dashboard/sign-in.html',
    '/dashboard/assets.js',
    '/dashboard/main.js',
    '/dashboard/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/dashboard%2f..%2fpackage.json',
  ];
  for (const path of paths) {
    const a = await rawGet(path);
    assert.equal(a.status, 404, path);
    assert.doesNotMatch(a.text, /"dependencies"|root:/, `${path} leaks nothing`);
  }
});

test('other methods on the dashboard and the admin API are 405 with Allow', async () => {
  assert.equal((await s.call('/dashboard', { method: 'POST', body: {} })).status, 405);
  assert.equal((await s.call('/dashboard/app.js', { method: 'DELETE' })).status, 405);
  const a = await s.call('/admin/api/reload', { method: 'DELETE', cookie: op.cookie });
  assert.equal(a.status, 405);
  assert.equal(a.headers.allow, 'GET, POST');
  assert.equal(
    (await s.call('/admin/api/keys', { method: 'PUT', cookie: op.cookie, body: {} })).headers.allow,
    'GET, POST',
  );
});

test('unknown admin paths are 404 not_found', async () => {
  const a = await s.call('/admin/api/nothing', { cookie: op.cookie });
  assert.equal(a.status, 404);
  assert.equal(a.body.code, 'not_found');
  assert.equal((await s.write(op, '/admin/api/keys/abc/explode')).status, 404);
});

test('a write body over 16 KiB is 400 and changes nothing', async () => {
  const count = s.store.keys.list().length;
  const a = await s.write(op, '/admin/api/keys', { plan: 'pro', org: 'x'.repeat(20_000) });
  assert.equal(a.status, 400);
  assert.equal(s.store.keys.list().length, count);
});

test('while the server drains, the admin API answers 503 shutting_down', async () => {
  s.state.draining = true;
  try {
    const a = await s.call('/admin/api/data', { cookie: op.cookie });
    assert.equal(a.status, 503);
    assert.equal(a.body.code, 'shutting_down');
  } finally {
    s.state.draining = false;
  }
});
